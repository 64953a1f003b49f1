import Foundation

/// Running `tabstore` as another user (`nobody`), for what file modes mean: root ignores
/// them. Needs root (CI runs as root) and `setpriv` (util-linux); tests skip otherwise.
enum OtherUser {
    static let uid: uid_t = 65534
    static let gid: gid_t = 65534
    static let isAvailable = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
}

extension Sandbox {
    /// Runs `tabstore ARGUMENTS...` as `nobody`, ending it after `timeout` seconds (exit
    /// 124, or 137 when SIGTERM does not end it) so that a hang fails the test instead of
    /// stalling it. The binary is copied
    /// into the sandbox first: the build folder may not be readable by other users.
    func runAsOtherUser(_ arguments: [String], timeout: Int = 30, user: uid_t = OtherUser.uid) -> Output {
        let binary = folder + "/tabstore-for-others"
        if !exists(binary) {
            try? installExecutable(TabstoreBinary.path, at: binary)
        }
        for path in [folder, binary] { chmod(path, 0o755) }
        return runProcess("/usr/bin/timeout", [
            "--kill-after=5", String(timeout), "/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(user == OtherUser.uid ? OtherUser.gid : user)", "--clear-groups", binary,
        ] + arguments)
    }

    /// A folder inside the sandbox with `mode`, owned by root.
    func makeFolder(_ name: String, mode: mode_t) -> String {
        let path = folder + "/" + name
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(path, mode)
        return path
    }

    /// The names in `folder` with each file's size and a digest of its bytes: a whole
    /// picture of what a run may have created or changed there.
    func picture(of folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder).sorted()) ?? []
        return names.map { name in
            let data = FileManager.default.contents(atPath: folder + "/" + name) ?? Data()
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return "\(name) \(data.count) \(String(hash, radix: 16))"
        }
    }
}
