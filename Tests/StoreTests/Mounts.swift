import Foundation

/// A small tmpfs mounted for one test, for disk-full and read-only file systems.
/// Mounting needs root; `mount` returns nil with the reason otherwise.
final class TemporaryMount {
    let path: String

    private init(path: String) {
        self.path = path
    }

    static func tmpfs(kilobytes: Int) -> Result<TemporaryMount, SkipReason> {
        let path = NSTemporaryDirectory() + "tabstore-mount-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard getuid() == 0 else { return .failure(SkipReason("mounting a tmpfs needs root")) }
        guard run("/bin/mount", "-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path) else {
            return .failure(SkipReason("mount -t tmpfs is not allowed here"))
        }
        return .success(TemporaryMount(path: path))
    }

    /// Makes the whole file system read-only: even root cannot write then.
    func remountReadOnly() -> Bool {
        Self.run("/bin/mount", "-o", "remount,ro", path)
    }

    deinit {
        _ = Self.run("/bin/umount", path)
        try? FileManager.default.removeItem(atPath: path)
    }

    @discardableResult
    private static func run(_ arguments: String...) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

struct SkipReason: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
