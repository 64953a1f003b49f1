import Foundation
import Testing
@testable import TabStoreCLI

/// `--db`, else `$TABSTORE_DB`, else `$XDG_DATA_HOME/tabstore/tabs.sqlite`, else
/// `$HOME/.local/share/tabstore/tabs.sqlite`; missing folders are created.
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

    /// Issue 9.10: an empty TABSTORE_DB is a usage error, not the user's real database.
    @Test func anEmptyTabstoreDBIsAUsageError() {
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["add", "main", "x"], environment: ["TABSTORE_DB": ""]) == .failure(2, """
            tabstore: error: TABSTORE_DB is set but empty; unset it or give a path
            Usage: tabstore add <set> [<title> ...] [--at <index>]
            See 'tabstore help add' for more.

            """))
        #expect(!sandbox.exists(sandbox.folder + "/home"))
    }

    /// Issue 9.15: the XDG data folder (and any folder tabstore creates) is mode 0700.
    @Test func createdFoldersArePrivate() throws {
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["add", "main", "x"]) == .ok("added 1 tab to main\n"))
        for folder in ["/home", "/home/.local", "/home/.local/share", "/home/.local/share/tabstore"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.folder + folder)
            #expect((attributes[.posixPermissions] as? Int).map { String($0, radix: 8) } == "700", "\(folder)")
        }
    }
}
