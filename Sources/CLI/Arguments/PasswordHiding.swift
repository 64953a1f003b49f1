#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A password in a `postgresql://` URL on the command line is visible to every user of the
/// machine (`ps`, /proc/PID/cmdline) for as long as the process runs: once the arguments
/// are read, it is cut out of the process's own copy of them, as database clients do. The
/// process table then shows the URL as messages do, without the password.
enum PasswordHiding {
    /// Rewrites, in place, each argument that is such a URL (or `--db=` one). The kernel
    /// lays the arguments end to end: the later ones move up, and NULs fill the end.
    /// `withoutPassword` rewrites a URL as messages show it (the PostgreSQL backend's).
    static func hidePasswordsInProcessArguments(using withoutPassword: (String) -> String) {
        let (count, argv) = ProcessArguments.vector
        var arguments: [[UInt8]] = []
        var changed = false
        for position in 1..<max(count, 1) {
            guard let pointer = argv[position] else { return }
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
            if let argument = String(validating: bytes, as: UTF8.self), let hidden = Self.withoutPassword(argument, using: withoutPassword) {
                arguments.append(Array(hidden.utf8))
                changed = true
            } else {
                arguments.append(bytes)
            }
        }
        guard changed, let first = argv[1].map(UnsafeMutableRawPointer.init) else { return }
        // Only where the arguments are where the kernel put them, one after the other.
        var end = first
        for position in 1..<count {
            guard let pointer = argv[position], UnsafeMutableRawPointer(pointer) == end else { return }
            end += strlen(pointer) + 1
        }
        var next = first
        for (offset, argument) in arguments.enumerated() {
            argv[offset + 1] = next.assumingMemoryBound(to: CChar.self)
            argument.withUnsafeBytes { next.copyMemory(from: $0.baseAddress!, byteCount: argument.count) }
            next += argument.count
            next.storeBytes(of: 0, as: UInt8.self)
            next += 1
        }
        while next < end {
            next.storeBytes(of: 0, as: UInt8.self)
            next += 1
        }
    }

    /// `argument` without its password, or nil when it holds none.
    static func withoutPassword(_ argument: String, using withoutPassword: (String) -> String) -> String? {
        let prefix = argument.hasPrefix("--db=") ? "--db=" : ""
        let value = String(argument.dropFirst(prefix.count))
        guard DatabasePath.isServerURL(value) else { return nil }
        let hidden = prefix + withoutPassword(value)
        return hidden == argument ? nil : hidden
    }
}
