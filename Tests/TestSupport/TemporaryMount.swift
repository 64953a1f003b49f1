import Foundation

/// A small tmpfs mounted for one test: a disk that fills up, or a file system that can
/// be made read-only (as root, file modes do not stop writes; a read-only mount does).
/// Unmounted when released.
public final class TemporaryMount {
    public let path: String

    /// Whether this machine lets the tests mount (root in CI); tests skip otherwise.
    public static let isAllowed: Bool = tmpfs(kilobytes: 64) != nil

    private init(path: String) {
        self.path = path
    }

    /// A new tmpfs of `kilobytes` and at most `inodes` files and folders (its root is one),
    /// or nil when mounting is not allowed here.
    public static func tmpfs(kilobytes: Int, inodes: Int? = nil) -> TemporaryMount? {
        let path = NSTemporaryDirectory() + "tabstore-mount-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let options = "size=\(kilobytes)k" + (inodes.map { ",nr_inodes=\($0)" } ?? "")
        guard run("/bin/mount", "-t", "tmpfs", "-o", options, "tmpfs", path) else {
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
        return TemporaryMount(path: path)
    }

    /// Makes the whole file system read-only. The kernel refuses (busy) while any process
    /// has a file there open for writing, and a child that another test spawns can inherit
    /// such a descriptor for its short life (SQLite marks its files close-on-exec only
    /// after opening them): so try again for a while before giving up.
    public func remountReadOnly() -> Bool {
        for attempt in 0..<50 {
            if Self.run("/bin/mount", "-o", "remount,ro", path) { return true }
            usleep(UInt32(20_000 * min(attempt + 1, 10)))
        }
        return false
    }

    deinit {
        _ = Self.run("/bin/umount", path)
        try? FileManager.default.removeItem(atPath: path)
    }

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
