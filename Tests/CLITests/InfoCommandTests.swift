import Foundation
import Testing
@testable import TabStoreKit

@Suite struct InfoCommandTests {
    @Test func textIsAlignedKeyValueLines() {
        let sandbox = Sandbox()
        sandbox.add("a", "1")
        sandbox.add("b")
        #expect(sandbox.run("info") == .ok("""
            path:            \(sandbox.database)
            schema version:  \(Migration.latestVersion)
            sets:            2
            check:           ok

            """))
    }

    @Test func json() {
        let sandbox = Sandbox()
        sandbox.add("a")
        #expect(sandbox.run("remove-set", "a").code == 0)
        #expect(sandbox.run("info", "--json") == .ok(
            #"{"path":""# + sandbox.database + #"","schemaVersion":\#(Migration.latestVersion),"setCount":0,"check":"ok"}"# + "\n"))
    }

    @Test func infoTakesNoArguments() {
        let sandbox = Sandbox()
        #expect(sandbox.run("info", "extra") == .failure(2, """
            tabstore: error: Unexpected argument 'extra' (see 'tabstore help info')

            """))
    }

    /// `info && echo healthy` is honest. A damaged file exits 3 with one line naming the
    /// first thing integrity_check found; --verbose and --json add all it found.
    @Test func aDamagedFileExitsThreeWithOneLine() throws {
        let sandbox = Sandbox()
        sandbox.fill(sandbox.database, tabs: 2000)
        // Overwrite a page in the middle: the file still opens, but its tree is wrong.
        let file = try #require(FileHandle(forUpdatingAtPath: sandbox.database))
        let size = try file.seekToEnd()
        try file.seek(toOffset: size / 2)
        file.write(Data(repeating: 0x55, count: 4096))
        try file.close()

        let verbose = sandbox.run("info", "--verbose")
        let header = "path:            \(sandbox.database)\nschema version:  \(Migration.latestVersion)\nsets:            1\ncheck:           *** in database main ***\n"
        #expect(verbose.stdout.hasPrefix(header))
        // The line after SQLite's header names the first damaged page ("Page 12: ..." or
        // "On tree page 42 cell 35: ...", by where the overwritten page fell in the tree).
        let finding = String(verbose.stdout.dropFirst(header.count).prefix { $0 != "\n" && $0 != ";" })
        #expect(finding.hasPrefix("Page ") || finding.hasPrefix("On tree page "))
        let line = "tabstore: error: database \(sandbox.database) is corrupt: \(finding)\n"
        #expect(verbose.code == 3 && verbose.stderr == line)
        #expect(sandbox.run("info") == .failure(3, line))
        let json = sandbox.run("info", "--json")
        #expect(json.code == 3)
        #expect(json.stderr == #"{"error":{"code":3,"message":"database "# + sandbox.database + #" is corrupt: \#(finding)"}}"# + "\n")
        #expect(json.stdout.hasPrefix(#"{"path":""# + sandbox.database + #"","schemaVersion":\#(Migration.latestVersion),"setCount":1,"check":"*** in database main ***\n"#))
        #expect(json.stdout.hasSuffix("\"}\n") && json.stdout.split(separator: "\n").count == 1)
        #expect(!sandbox.exists(sandbox.database + "-wal") && !sandbox.exists(sandbox.database + "-shm"))
    }

    @Test func aMissingDatabaseExitsOneAndIsNotCreated() {
        let sandbox = Sandbox()
        #expect(sandbox.run("info") == .failure(1, "tabstore: error: no database at \(sandbox.database) yet\n"))
        #expect(!sandbox.exists(sandbox.database))
    }

    /// The rule check runs on a file as on a server: rows edited around tabstore that break
    /// a rule exit 3 with the set and the rule named, though SQLite's own check is fine.
    @Test(arguments: [
        ("UPDATE tab SET position = position + 10 WHERE title = 'b'", #"set "s": its tabs' positions are not contiguous from its base"#),
        ("UPDATE tab_set SET selected_tab_id = NULL WHERE name = 's'", #"set "s": it has tabs but no selected tab"#),
        ("UPDATE tab_set SET selected_tab_id = (SELECT id FROM tab WHERE title = 'x')", #"set "s": its selected tab is not one of its tabs"#),
        ("UPDATE tab_set SET revision = 9 WHERE name = 's'", #"set "s": its revision 9 is not its newest change's (1)"#),
        ("UPDATE tab SET uuid = upper(uuid) WHERE title = 'b'", #"set "s": 1 of its tabs has no valid id (a lowercase UUID, not the nil one)"#),
        ("UPDATE tab SET uuid = CASE title WHEN 'a' THEN 'garbage' ELSE NULL END WHERE title <> 'x'", #"set "s": 2 of its tabs have no valid id (a lowercase UUID, not the nil one)"#),
        ("UPDATE tab SET uuid = '00000000-0000-0000-0000-000000000000' WHERE title = 'x'", #"set "t": 1 of its tabs has no valid id (a lowercase UUID, not the nil one)"#),
        ("UPDATE tab SET payload = '1:k5:v' WHERE title = 'b'", #"set "s": 1 of its tabs has data not as tabstore writes it (reads take only what they can of it)"#),
        ("UPDATE tab SET payload = CASE title WHEN 'a' THEN 'not json' ELSE '' END WHERE title <> 'x'", #"set "s": 2 of its tabs have data not as tabstore writes it (reads take only what they can of it)"#),
        ("UPDATE tab SET payload = '1:k0:1:k1:v' WHERE title = 'x'", #"set "t": 1 of its tabs has data not as tabstore writes it (reads take only what they can of it)"#),
        ("UPDATE tab SET payload = '0:1:v' WHERE title = 'x'", #"set "t": 1 of its tabs has data not as tabstore writes it (reads take only what they can of it)"#),
        ("UPDATE tab SET title = char(27) || ']0;PWN' || char(7) WHERE title = 'b'", #"set "s": 1 of its tabs has a title the rules refuse (empty, too long, invisible or with a control character)"#),
        ("UPDATE tab SET title = '', payload = 'x' WHERE title = 'x'", #"set "t": 1 of its tabs has a title the rules refuse (empty, too long, invisible or with a control character)"#
            + "; " + #"set "t": 1 of its tabs has data not as tabstore writes it (reads take only what they can of it)"#),
    ])
    func rowsThatBreakARuleFailTheCheck(edit: String, finding: String) {
        let sandbox = Sandbox()
        sandbox.add("s", "a", "b")
        sandbox.add("t", "x")
        _ = sandbox.runProcess("/usr/bin/sqlite3", [sandbox.database, edit])
        #expect(sandbox.run("info") == .failure(3, "tabstore: error: the check of database \(sandbox.database) found: \(finding)\n"))
        let verbose = sandbox.run("info", "--verbose")
        #expect(verbose.stdout.hasSuffix("check:           \(finding)\n"))
    }
}
