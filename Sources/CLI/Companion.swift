#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands a run to the companion executable (`tabstore-postgres`), as `exec` does: the same
/// process id, arguments, environment and open descriptors, so the caller sees one command.
enum Companion {
    /// Replaces this process with the companion: the one beside this executable (its real
    /// path, so a symlink to `tabstore` finds the companion installed with it), else the
    /// first on `PATH`.
    /// - Returns: why it could not be started; on success it does not return.
    static func replaceProcess(with name: String) -> CLIError {
        let executable = ownExecutable()
        let beside = executable.map { folder(of: $0) + "/" + name }
        guard let path = ([beside].compactMap { $0 } + onPath(name)).first(where: isExecutableFile) else {
            let places = executable.map { "neither beside \($0) nor on PATH" } ?? "not on PATH"
            return .companionUnavailable(
                "a postgresql:// database needs \(name), which is \(places); install it next to tabstore")
        }
        execv(path, ProcessArguments.vector.arguments)
        return .companionUnavailable("cannot run \(path) for a postgresql:// database: \(errorMessage(errno))")
    }

    /// The running executable with symlinks resolved; `nil` where the system does not say.
    static func ownExecutable() -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        return nil
        #endif
    }

    /// `name` in each folder of `PATH`, in order; empty entries are skipped, never the
    /// current folder.
    static func onPath(_ name: String) -> [String] {
        let path = getenv("PATH").map { String(cString: $0) } ?? ""
        return path.split(separator: ":").map { "\($0)/\(name)" }
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// A regular file this process may execute (a folder passes `access(X_OK)`, so not that alone).
    private static func isExecutableFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
    }
}
