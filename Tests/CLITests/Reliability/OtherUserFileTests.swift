import Foundation
@testable import TabStoreCLI
import TabStoreKit
import Testing

/// Databases a user may read but not write, and folders a user may not write: another
/// user's files, as file modes make them (run as `nobody`: root ignores modes).
@Suite(.enabled(if: OtherUser.isAvailable, "needs root and setpriv to run tabstore as another user"))
struct OtherUserFileTests {
    /// A database of root's in `folder`, one set `main` (Home, Reviews; Reviews selected).
    private func database(in folder: String, of sandbox: Sandbox) -> String {
        let path = folder + "/tabs.sqlite"
        #expect(sandbox.runWithoutDatabase(["--db", path, "add", "main", "Home", "Reviews"]).code == 0)
        #expect(sandbox.runWithoutDatabase(["--db", path, "select", "main", "1"]).code == 0)
        return path
    }

    /// `backup` of a read-only database owned by another user, whose -shm a read
    /// left behind, spun at 100% CPU forever (every step found the database changed and
    /// started the copy again) and left an empty temporary file. It needs more pages than
    /// one step copies (256) to show.
    @Test func aBackupOfAnotherUsersReadOnlyDatabaseFinishes() throws {
        let sandbox = Sandbox()
        let shared = sandbox.makeFolder("shared", mode: 0o777)
        let out = sandbox.makeFolder("out", mode: 0o777)
        let path = shared + "/tabs.sqlite"
        let document = TabStoreDocument(sets: (0..<12).map { set in
            .init(name: "set \(set)", selectedIndex: 0, tabs: (0..<1000).map { "tab \($0) with a title long enough to fill pages" })
        })
        #expect(sandbox.runWithoutDatabase(["--db", path, "import", sandbox.write(document.json(), to: "big.json")]) == .ok("imported 12 sets\n"))
        chmod(path, 0o444)
        // A read by the other user leaves its -shm (mode 0444 like the database) behind.
        #expect(sandbox.runAsOtherUser(["--db", path, "list", "set 3"]).stdout.hasPrefix("*   0  tab 0 with"))
        #expect(sandbox.exists(path + "-shm"))

        let copy = out + "/copy.sqlite"
        #expect(sandbox.runAsOtherUser(["--db", path, "backup", copy], timeout: 60) == .ok("backed up to \(copy)\n"))
        #expect(sandbox.runWithoutDatabase(["--db", copy, "export"]) == sandbox.runWithoutDatabase(["--db", path, "export"]))
        #expect(sandbox.picture(of: out).map { $0.prefix { $0 != " " } } == ["copy.sqlite"])
    }

    /// A writable database in a folder the user may not write: every read said
    /// "read-only". Reads work as on a read-only mount; writes name the folder; nothing
    /// is created or changed.
    @Test func aWritableFileInAReadOnlyFolderServesReadsAndWritesNameTheFolder() {
        let sandbox = Sandbox()
        let folder = sandbox.makeFolder("theirs", mode: 0o755)
        let path = database(in: folder, of: sandbox)
        chown(path, OtherUser.uid, OtherUser.gid)
        let before = sandbox.picture(of: folder)
        let run = { (arguments: [String]) in sandbox.runAsOtherUser(["--db", path] + arguments) }

        #expect(run(["list"]) == .ok("main  2 tabs  Reviews\n"))
        #expect(run(["list", "main"]) == .ok("  0  Home\n* 1  Reviews\n"))
        #expect(run(["restore", "main"]) == .ok("1\n"))
        #expect(run(["info"]) == .ok("path:            \(path)\nschema version:  \(Migration.latestVersion)\nsets:            1\ncheck:           ok\n"))
        #expect(run(["export", "main"]).stdout.contains(#""selectedIndex": 1"#))
        #expect(run(["history", "main"]).stdout.split(separator: "\n").count == 2)
        let refusal = "tabstore: error: cannot write database \(path): its folder \(folder) is not writable, and SQLite needs to create the database's -wal and -shm files there\n"
        for write in [["select", "main", "0"], ["add", "main", "x"], ["remove-set", "main"]] {
            #expect(run(write) == .failure(3, refusal), "\(write)")
        }
        #expect(sandbox.picture(of: folder) == before)
    }

    /// A new database in a folder the user may not write: the message named neither the
    /// folder nor why ("the file or its folder cannot be opened or created"). Nothing is
    /// made, by `add` or `import`, nor by a bare name in that folder.
    @Test func aNewDatabaseInAFolderTheUserMayNotWriteNamesTheFolder() {
        let sandbox = Sandbox()
        let folder = sandbox.makeFolder("theirs", mode: 0o755)
        let path = folder + "/new.sqlite"
        let document = sandbox.write(#"{"format":"tabstore","version":2,"sets":[{"name":"s","selectedIndex":0,"tabs":["A"]}]}"#, to: "s.json")
        chmod(document, 0o644)
        let refusal = "tabstore: error: cannot open database \(path): its folder \(folder) is not writable\n"
        #expect(sandbox.runAsOtherUser(["--db", path, "add", "s", "A"]) == .failure(3, refusal))
        #expect(sandbox.runAsOtherUser(["--db", path, "import", document]) == .failure(3, refusal))
        #expect(sandbox.picture(of: folder) == [])
    }

    /// Another user's read of a file it may not write, in a folder it may, leaves -wal and
    /// -shm files that are its own (SQLite makes them so): the owner's writes then failed
    /// saying the database was read-only, which it is not. They say what is in the way.
    @Test func theOwnersWriteAfterAnotherUsersReadNamesTheFilesInTheWay() {
        let sandbox = Sandbox()
        let folder = sandbox.makeFolder("shared", mode: 0o777)
        let path = folder + "/tabs.sqlite"
        let owner: uid_t = 1234
        #expect(sandbox.runAsOtherUser(["--db", path, "add", "main", "Home", "Menu"], user: owner) == .ok("added 2 tabs to main\n"))
        #expect(sandbox.runAsOtherUser(["--db", path, "list", "main"]) == .ok("* 0  Home\n  1  Menu\n"))
        #expect(sandbox.exists(path + "-wal") && sandbox.exists(path + "-shm"))
        #expect(sandbox.runAsOtherUser(["--db", path, "select", "main", "Menu"], user: owner) == .failure(3,
            "tabstore: error: cannot write database \(path): its -wal or -shm file is not writable by this user (another user's read leaves them, as theirs); with no process using the database, remove \(path)-wal and \(path)-shm\n"))
        // Doing so is enough.
        for file in [path + "-wal", path + "-shm"] { unlink(file) }
        #expect(sandbox.runAsOtherUser(["--db", path, "select", "main", "Menu"], user: owner) == .ok("selected 1: Menu\n"))
    }

    /// The same folder with a database the user may not write either: reads work,
    /// writes say the database is read-only.
    @Test func aReadOnlyFileInAReadOnlyFolderServesReads() {
        let sandbox = Sandbox()
        let folder = sandbox.makeFolder("theirs", mode: 0o755)
        let path = database(in: folder, of: sandbox)
        let before = sandbox.picture(of: folder)
        #expect(sandbox.runAsOtherUser(["--db", path, "list", "main"]) == .ok("  0  Home\n* 1  Reviews\n"))
        #expect(sandbox.runAsOtherUser(["--db", path, "select", "main", "0"]) == .failure(3,
            "tabstore: error: database \(path) is read-only\n"))
        #expect(sandbox.picture(of: folder) == before)
    }

    /// Committed changes still in the -wal, and no -shm that SQLite could read them with:
    /// the database file alone is an old state. It was read as if immutable, showing the
    /// old state as the truth; now the read is refused naming the folder.
    @Test func changesWaitingInTheWALAreNotSkippedWhenTheyCannotBeRead() throws {
        let sandbox = Sandbox()
        let live = sandbox.makeFolder("live", mode: 0o755)
        let path = database(in: live, of: sandbox)
        let folder = sandbox.makeFolder("copied", mode: 0o755)
        do {
            // While a store holds it open, the last change is in the -wal, not yet in the file.
            let store = try TabStore(path: path)
            try store.select(.index(0), in: "main")
            for suffix in ["", "-wal"] {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: folder + "/tabs.sqlite" + suffix)
            }
        }
        let copy = folder + "/tabs.sqlite"
        #expect(sandbox.runAsOtherUser(["--db", copy, "list", "main"]) == .failure(3,
            "tabstore: error: cannot read database \(copy): its folder \(folder) is not writable, and SQLite needs to create the database's -shm file there to read the changes in its -wal file\n"))
        // Where the -shm can be made, the same files read with the change.
        chmod(folder, 0o777)
        #expect(sandbox.runAsOtherUser(["--db", copy, "list", "main"]) == .ok("* 0  Home\n  1  Reviews\n"))
    }
}
