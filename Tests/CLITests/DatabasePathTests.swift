import Foundation
import Testing
@testable import TabStoreCLI

/// `--db`, else `$TABSTORE_DB`, else `$XDG_DATA_HOME/tabstore/tabs.sqlite`, else
/// `$HOME/.local/share/tabstore/tabs.sqlite`; only `add`, `import` and `sync` create it and its folders.
@Suite struct DatabasePathTests {
    @Test func tabstoreDBVariable() {
        let sandbox = Sandbox()
        let path = sandbox.folder + "/from-env/deeper/tabs.sqlite"
        #expect(sandbox.runWithoutDatabase(["add", "main", "x"], environment: ["TABSTORE_DB": path]) == .ok("added 1 tab to main\n"))
        #expect(sandbox.exists(path))
        #expect(sandbox.runWithoutDatabase(["info", "--json"], environment: ["TABSTORE_DB": path]).stdout.contains(#""path":"\#(path)""#))
    }

    @Test func xdgDataHomeWithParentCreation() {
        let sandbox = Sandbox()
        let dataHome = sandbox.folder + "/xdg/data"
        #expect(sandbox.runWithoutDatabase(["add", "main", "x"], environment: ["XDG_DATA_HOME": dataHome]) == .ok("added 1 tab to main\n"))
        #expect(sandbox.exists(dataHome + "/tabstore/tabs.sqlite"))
    }

    @Test func homeFallback() {
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["add", "main", "x"]) == .ok("added 1 tab to main\n"))
        #expect(sandbox.exists(sandbox.folder + "/home/.local/share/tabstore/tabs.sqlite"))
    }

    @Test func dbOptionWinsOverTheVariables() {
        let sandbox = Sandbox()
        let environment = ["TABSTORE_DB": sandbox.folder + "/env.sqlite", "XDG_DATA_HOME": sandbox.folder + "/xdg"]
        #expect(sandbox.run("add", "main", "x", environment: environment) == .ok("added 1 tab to main\n"))
        #expect(sandbox.exists(sandbox.database))
        #expect(!sandbox.exists(sandbox.folder + "/env.sqlite"))
        #expect(!sandbox.exists(sandbox.folder + "/xdg"))
    }

    @Test(arguments: [
        (["TABSTORE_DB": "/a/t.sqlite", "XDG_DATA_HOME": "/x", "HOME": "/h"], "/a/t.sqlite"),
        (["XDG_DATA_HOME": "relative", "HOME": "/h"], "/h/.local/share/tabstore/tabs.sqlite"),
        (["XDG_DATA_HOME": "", "HOME": "/h"], "/h/.local/share/tabstore/tabs.sqlite"),
    ])
    func resolution(environment: [String: String], expected: String) throws {
        #expect(try DatabasePath.resolve(option: nil, environment: .fixed(environment)) == expected)
        #expect(try DatabasePath.resolve(option: "given.sqlite", environment: .fixed(environment)) == "given.sqlite")
    }

    @Test func noHomeIsADatabaseProblem() {
        let sandbox = Sandbox()
        let output = sandbox.runProcess("/usr/bin/env", ["-u", "HOME", TabstoreBinary.path, "list"])
        #expect(output == .failure(3,
            "tabstore: error: cannot choose a database path: HOME is not set; pass --db PATH or set TABSTORE_DB\n"))
    }

    /// An empty TABSTORE_DB is a usage error, not the user's real database.
    @Test func anEmptyTabstoreDBIsAUsageError() {
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["add", "main", "x"], environment: ["TABSTORE_DB": ""]) == .failure(2, """
            tabstore: error: TABSTORE_DB is set but empty; unset it or give a path (see 'tabstore help add')

            """))
        #expect(!sandbox.exists(sandbox.folder + "/home"))
    }

    /// A path variable holding bytes that are not UTF-8 is refused as such a --db is: read
    /// with U+FFFD in their place, `/db\xFF` and `/db\xFE` were one file. The shell passes
    /// the raw bytes (Foundation's Process takes Strings); nothing is created.
    @Test(arguments: [
        ("TABSTORE_DB", #"TABSTORE_DB="$1/db$(printf '\377').sqlite""#, "unset it or give a path in UTF-8"),
        ("TABSTORE_DB", #"TABSTORE_DB="$1/db$(printf '\376').sqlite""#, "unset it or give a path in UTF-8"),
        ("XDG_DATA_HOME", #"XDG_DATA_HOME="$1/data$(printf '\377')""#, "unset it, pass --db PATH or set TABSTORE_DB"),
        ("HOME", #"HOME="$1/home$(printf '\377')""#, "pass --db PATH or set TABSTORE_DB"),
    ])
    func aPathVariableThatIsNotUTF8IsAUsageError(name: String, assignment: String, advice: String) throws {
        let sandbox = Sandbox()
        let script = "\(assignment) exec \"$0\" add main x"
        #expect(sandbox.runProcess("/bin/sh", ["-c", script, TabstoreBinary.path, sandbox.folder]) == .failure(2, """
            tabstore: error: \(name) is not valid UTF-8; \(advice) (see 'tabstore help add')

            """))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder) == [])
    }

    /// Only a variable that is used is read: a relative XDG_DATA_HOME is ignored whatever
    /// its bytes, and --db wins over every variable.
    @Test func aVariableThatIsNotUsedNeedNotBeUTF8() throws {
        let environment = Environment.fixed(["HOME": "/h"], bytes: ["XDG_DATA_HOME": Array("data".utf8) + [0xFF], "TABSTORE_DB": [0xFF]])
        #expect(try DatabasePath.resolve(option: "given.sqlite", environment: environment) == "given.sqlite")
        let relative = Environment.fixed(["HOME": "/h"], bytes: ["XDG_DATA_HOME": Array("data".utf8) + [0xFF]])
        #expect(try DatabasePath.resolve(option: nil, environment: relative) == "/h/.local/share/tabstore/tabs.sqlite")
    }

    /// The XDG data folder (and any folder tabstore creates) is mode 0700.
    @Test func createdFoldersArePrivate() throws {
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["add", "main", "x"]) == .ok("added 1 tab to main\n"))
        for folder in ["/home", "/home/.local", "/home/.local/share", "/home/.local/share/tabstore"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.folder + folder)
            #expect((attributes[.posixPermissions] as? Int).map { String($0, radix: 8) } == "700", "\(folder)")
        }
    }

    /// Only `add`, `import` and `sync` create a database. Every other command reads a
    /// missing one as empty (or says the set or the database does not exist) and creates
    /// no file or folder.
    @Test func commandsOtherThanAddAndImportCreateNothing() {
        let sandbox = Sandbox()
        let typo = sandbox.folder + "/typo/deeper/typo.sqlite"
        let missingSet = "tabstore: error: no tab set named \"s\"\n"
        let noDatabase = "tabstore: error: no database at \(typo) yet\n"
        let expected: [([String], Output)] = [
            (["list"], .ok("")),
            (["--json", "list"], .ok(#"{"sets":[]}"# + "\n")),
            (["list", "s"], .failure(1, missingSet)),
            (["restore", "s"], .failure(1, missingSet)),
            (["show", "s"], .failure(1, missingSet)),
            (["history", "s"], .failure(1, missingSet)),
            (["export", "s"], .failure(1, missingSet)),
            (["select", "s", "0"], .failure(1, missingSet)),
            (["remove", "s", "0"], .failure(1, missingSet)),
            (["remove-set", "s"], .failure(1, missingSet)),
            (["rename-set", "s", "t"], .failure(1, missingSet)),
            (["reopen", "s"], .failure(1, missingSet)),
            (["info"], .failure(1, noDatabase)),
            (["watch"], .failure(1, noDatabase)),
            (["watch", "s"], .failure(1, noDatabase)),
        ]
        for (command, output) in expected {
            // `timeout`: a `watch` that waited instead of refusing would end the test as a failure, not hang it.
            let run = sandbox.runProcess("/usr/bin/timeout", ["20", TabstoreBinary.path, "--db", typo] + command)
            #expect(run == output, "\(command)")
        }
        #expect(sandbox.runWithoutDatabase(["--db", typo, "export"]).stdout.contains(#""sets": []"#))
        #expect(!sandbox.exists(sandbox.folder + "/typo"))
        // The default path too: no ~/.local/share/tabstore appears.
        #expect(sandbox.runWithoutDatabase(["list"]) == .ok(""))
        #expect(!sandbox.exists(sandbox.folder + "/home"))
    }

    /// A refused `add` or `import` creates nothing either: the edit is tried on an empty
    /// database first, so a mistyped --db with a bad title leaves no folder behind.
    @Test(arguments: [
        (["add", "s", ""], "tabstore: error: invalid title \"\": it is empty\n"),
        (["add", "", "x"], "tabstore: error: invalid set name \"\": it is empty\n"),
        (["add", "s", "x", "--if-revision", "5"], "tabstore: error: set \"s\" does not exist, so it is not at revision 5\n"),
        (["add", "s", "x", "--at", "1"], "tabstore: error: insertion index 1 is out of range for set \"s\" (valid: 0...0 or -1...-1)\n"),
    ])
    func aRefusedAddCreatesNoDatabase(arguments: [String], message: String) {
        let sandbox = Sandbox()
        let typo = sandbox.folder + "/typo/deeper/typo.sqlite"
        #expect(sandbox.runWithoutDatabase(["--db", typo] + arguments) == .failure(1, message))
        #expect(!sandbox.exists(sandbox.folder + "/typo"))
        // The same edit, made valid, creates the database.
        #expect(sandbox.runWithoutDatabase(["--db", typo, "add", "s", "x"]).code == 0)
        #expect(sandbox.exists(typo))
    }
}
