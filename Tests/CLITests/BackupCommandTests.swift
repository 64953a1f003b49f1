import Foundation
import TabStoreKit
import Testing
import TabStoreTestSupport

/// `backup FILE` and `export --output FILE` write a temporary file beside FILE,
/// sync it and rename it into place: FILE is the old file or the complete new one.
@Suite struct BackupCommandTests {
    private func filled() -> Sandbox {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "리뷰", "1")
        sandbox.add("other", "x")
        _ = sandbox.run("select", "main", "-1")
        return sandbox
    }

    private func contents(_ path: String) -> Data? {
        FileManager.default.contents(atPath: path)
    }

    private func folderEntries(_ folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder).sorted()) ?? []
    }

    @Test func aBackupIsReadableAsADatabase() {
        let sandbox = filled()
        let file = sandbox.folder + "/backup.sqlite"
        #expect(sandbox.run("backup", file) == .ok("backed up to \(file)\n"))
        let copy = sandbox.runWithoutDatabase(["--db", file, "export"])
        #expect(copy == sandbox.run("export"))
        #expect(sandbox.runWithoutDatabase(["--db", file, "list", "main"]) == .ok("  0  Home\n  1  리뷰\n* 2  1\n"))
        #expect(sandbox.runWithoutDatabase(["--db", file, "history", "main"]).stdout == sandbox.run("history", "main").stdout)
    }

    @Test(arguments: [["backup"], ["export", "--output"]])
    func anExistingFileIsReplacedOnlyWithForce(command: [String]) {
        let sandbox = filled()
        let file = sandbox.write("old\n", to: "existing")
        #expect(sandbox.run(command + [file]) == .failure(1,
            "tabstore: error: \(file) already exists; pass --force to replace it\n"))
        #expect(contents(file) == Data("old\n".utf8))
        #expect(sandbox.run(command + [file, "--force"]).code == 0)
        #expect(contents(file) != Data("old\n".utf8))
    }

    @Test func exportOutputWritesTheDocument() {
        let sandbox = filled()
        let file = sandbox.folder + "/sets.json"
        #expect(sandbox.run("export", "--output", file) == .ok("exported 2 sets to \(file)\n"))
        #expect(contents(file) == Data(sandbox.run("export").stdout.utf8))
        #expect(sandbox.run("--json", "export", "main", "--output", file, "--force") == .ok(#"{"exported":1,"file":"\#(file)"}"# + "\n"))
    }

    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount a tmpfs (root in CI)"))
    func aBackupOrExportOnAFullDiskLeavesTheOldFile() throws {
        let sandbox = Sandbox()
        sandbox.add("main", Array(0..<3000).map { "tab \($0) " + String(repeating: "x", count: 40) })
        let mount = try #require(TemporaryMount.tmpfs(kilobytes: 64))
        let file = mount.path + "/copy"
        _ = FileManager.default.createFile(atPath: file, contents: Data("old copy\n".utf8))
        for command in [["backup"], ["export", "--output"]] {
            #expect(sandbox.run(command + [file, "--force"]) == .failure(4,
                "tabstore: error: cannot write \(file): No space left on device\n"))
            #expect(contents(file) == Data("old copy\n".utf8))
            #expect(folderEntries(mount.path) == ["copy"])
        }
    }

    /// Killed at any moment, a backup leaves FILE as the old file or the whole copy.
    @Test func aKilledBackupLeavesTheOldFileOrTheWholeCopy() throws {
        let sandbox = Sandbox()
        let store = try TabStore(path: sandbox.database)
        for set in 0..<8 {
            try store.add(Array(0..<4000).map { "tab \($0) " + String(repeating: "y", count: 60) }, to: "set \(set)", creatingSet: true)
        }
        let file = sandbox.folder + "/backup.sqlite"
        #expect(sandbox.run("backup", file).code == 0)
        var generator = SplitMix64(seed: 9)
        for round in 0..<6 {
            // Change the source, so the old backup and a new one differ.
            try store.add(["round \(round)"], to: "set 0", creatingSet: true)
            let old = try #require(contents(file))
            let backup = try RunningTabstore(sandbox, ["backup", file, "--force"])
            usleep(UInt32(generator.next() % 150_000))
            backup.send(SIGKILL)
            _ = backup.exit()
            let now = try #require(contents(file))
            if now != old {
                let copy = sandbox.runWithoutDatabase(["--db", file, "export"]).stdout
                #expect(copy == sandbox.run("export").stdout)
            }
            #expect(integrityCheck(file) == "ok")
        }
    }
}

/// SIGTERM (or Ctrl-C), and later SIGHUP (a closed terminal), in the middle of writing
/// left the temporary `.FILE.tmp-PID` behind. The run still ends by the signal, and
/// leaves nothing.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "needs strace to hold the run at its fsync"))
struct InterruptedWriteTests {
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP], [["backup"], ["export", "--output"]])
    func aSignalRemovesTheTemporaryFile(signal: Int32, command: [String]) throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews")
        let out = sandbox.folder + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        // strace holds every fsync for two seconds: the temporary file is written and
        // waits to be synced when the signal comes.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        process.arguments = ["-f", "-o", "/dev/null", "-e", "trace=fsync", "-e", "inject=fsync:delay_enter=2000000",
                             TabstoreBinary.path, "--db", sandbox.database] + command + [out + "/copy"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var temporary: String?
        for _ in 0..<500 where temporary == nil {
            temporary = try FileManager.default.contentsOfDirectory(atPath: out).first { $0.hasPrefix(".copy.tmp-") }
            if temporary == nil { usleep(10_000) }
        }
        let name = try #require(temporary, "no temporary file appeared")
        let pid = try #require(Int32(name.dropFirst(".copy.tmp-".count)))
        #expect(kill(pid, signal) == 0)
        process.waitUntilExit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == [])
        // strace ends as its tracee did: by the signal.
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal
            || process.terminationStatus == 128 + signal, "\(process.terminationReason) \(process.terminationStatus)")
        #expect(sandbox.list("main") == "* 0  Home\n  1  Reviews\n")
    }
}

/// A copy is never written over the database it is copied from: the rename would leave
/// every process that has the database open writing to a file nobody reads again.
@Suite struct BackupOntoTheDatabaseTests {
    @Test(arguments: [["backup"], ["export", "--output"]], ["", "-wal"])
    func theDatabaseItselfIsNeverReplacedEvenWithForce(command: [String], suffix: String) throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews")
        let before = sandbox.run("export")
        let target = sandbox.database + suffix
        #expect(sandbox.run(command + [target, "--force"]) == .failure(1,
            "tabstore: error: \(target) is the database being read; write the copy to another file\n"))
        #expect(sandbox.run("export") == before)
    }

    @Test func aLinkToTheDatabaseIsTheDatabase() throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        let link = sandbox.folder + "/link.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: sandbox.database)
        #expect(sandbox.run("backup", link, "--force") == .failure(1,
            "tabstore: error: \(link) is the database being read; write the copy to another file\n"))
        #expect(sandbox.run("list", "main") == .ok("* 0  Home\n"))
    }

    @Test func emptyOrMisplacedFileOptionsAreUsageErrors() {
        let sandbox = Sandbox()
        #expect(sandbox.run("backup", "").code == 2)
        #expect(sandbox.run("backup", "").stderr == "tabstore: error: The value '' is invalid for '<file>': it is empty (see 'tabstore help backup')\n")
        #expect(sandbox.run("export", "--force").stderr ==
            "tabstore: error: '--force' replaces the file of '--output <file>'; give --output too (see 'tabstore help export')\n")
        #expect(sandbox.run("export", "--force").code == 2)
    }
}

/// `--force` replaced whatever was at FILE with a regular file: a device, a FIFO, a
/// symbolic link (the link itself, its target untouched). Only a regular file is
/// replaced; anything else is refused before anything is written, with or without
/// `--force`, and is left as it was.
@Suite struct ReplacingOnlyARegularFileTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case characterDevice, namedPipe, socket, directory, linkToAFile, danglingLink
        var testDescription: String { rawValue }

        /// What the message calls it.
        var name: String {
            switch self {
            case .characterDevice: "a character device"
            case .namedPipe: "a named pipe"
            case .socket: "a socket"
            case .directory: "a directory"
            case .linkToAFile, .danglingLink: "a symbolic link"
            }
        }
    }

    /// Puts a `kind` at `path` (a link's target is `path-target`).
    private func make(_ kind: Kind, at path: String) throws {
        switch kind {
        case .characterDevice:
            // /dev/null's numbers (1, 3): only root may make a device.
            try #require(mknod(path, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0, "mknod: \(String(cString: strerror(errno)))")
        case .namedPipe:
            try #require(mkfifo(path, 0o644) == 0)
        case .socket:
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            try #require(bound == 0)
        case .directory:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case .linkToAFile:
            _ = FileManager.default.createFile(atPath: path + "-target", contents: Data("target\n".utf8))
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path + "-target")
        case .danglingLink:
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path + "-target")
        }
    }

    /// Everything that shows whether the thing at `path` was touched: its own status (not
    /// followed), a link's target, and the folder's entries (no temporary file).
    private func fingerprint(_ path: String, in folder: String) -> String {
        var status = stat()
        guard lstat(path, &status) == 0 else { return "missing" }
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "-"
        let target = FileManager.default.contents(atPath: path + "-target").map { String(decoding: $0, as: UTF8.self) } ?? "-"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".std") }.sorted()) ?? []
        return "mode \(String(status.st_mode, radix: 8)) inode \(status.st_ino) device \(status.st_rdev) link \(link) target \(target) entries \(entries)"
    }

    @Test(arguments: [["backup"], ["export", "--output"]], Kind.allCases)
    func anythingButARegularFileIsRefusedAndLeftAsItWas(command: [String], kind: Kind) throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews")
        let file = sandbox.folder + "/out"
        try make(kind, at: file)
        let before = fingerprint(file, in: sandbox.folder)
        for force in [["--force"], []] {
            #expect(sandbox.run(command + [file] + force) == .failure(1,
                "tabstore: error: cannot replace \(file): it is \(kind.name), not a regular file\n"), "\(force)")
            #expect(fingerprint(file, in: sandbox.folder) == before)
        }
        #expect(sandbox.run("--json", "backup", file, "--force") == .failure(1,
            #"{"error":{"code":1,"message":"cannot replace \#(file): it is \#(kind.name), not a regular file"}}"# + "\n"))
    }
}

/// `--force` loosened permissions: a 0600 file came back 0644. The replacement keeps the
/// replaced file's permission bits (and, as root, its owner and group); a new file is
/// created as before, 0644 less the umask.
@Suite struct ReplacedFilePermissionTests {
    private func mode(_ path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
    }

    @Test(arguments: [["backup"], ["export", "--output"]], [0o600, 0o640, 0o664] as [mode_t])
    func theReplacementKeepsTheModeOfTheReplacedFile(command: [String], original: mode_t) throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews")
        let file = sandbox.write("old\n", to: "secret")
        try #require(chmod(file, original) == 0)
        #expect(sandbox.run(command + [file, "--force"]).code == 0)
        #expect(FileManager.default.contents(atPath: file) != Data("old\n".utf8))
        #expect(mode(file) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder).filter { $0.hasPrefix(".secret") } == [])
    }

    @Test(.enabled(if: getuid() == 0, "only root may give a file to another user"), arguments: [["backup"], ["export", "--output"]])
    func asRootTheReplacementKeepsTheOwnerAndGroup(command: [String]) throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        let file = sandbox.write("old\n", to: "theirs")
        try #require(chown(file, 4321, 8765) == 0 && chmod(file, 0o640) == 0)
        #expect(sandbox.run(command + [file, "--force"]).code == 0)
        var status = stat()
        try #require(stat(file, &status) == 0)
        #expect([status.st_uid, status.st_gid] == [4321, 8765])
        #expect(status.st_mode & 0o7777 == 0o640)
    }

    @Test(arguments: [["backup"], ["export", "--output"]])
    func aNewFileTakesTheUmaskAsBefore(command: [String]) {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        let file = sandbox.folder + "/new"
        let script = #"umask 027 && exec "$0" --db "$1" "${@:2}""#
        let output = sandbox.runProcess("/bin/bash", ["-c", script, TabstoreBinary.path, sandbox.database] + command + [file])
        #expect(output.code == 0, "\(output)")
        #expect(mode(file) == 0o640)
    }
}
