import Testing

/// Exit code 2: the command line does not match the declaration. Nothing is opened or written.
@Suite struct UsageErrorTests {
    @Test func anUnknownSubcommandIsAUsageErrorThatOpensNothing() {
        let sandbox = Sandbox()
        #expect(sandbox.run("frobnicate", "main", "0") == .failure(2, """
            tabstore: error: Unknown subcommand 'frobnicate'
            Usage: tabstore <subcommand> [<arguments> ...] [--db <path>] [--json]
            See 'tabstore help' for more.

            """))
        #expect(!sandbox.exists(sandbox.database))
    }

    @Test func anUnknownOptionIsAUsageErrorAndCommandOptionsComeOnlyAfterTheCommand() {
        let sandbox = Sandbox()
        #expect(sandbox.run("select", "main", "0", "--force") == .failure(2, """
            tabstore: error: Unknown option '--force'
            Usage: tabstore select <set> <tab>
            See 'tabstore help select' for more.

            """))
        // A command's option is not known before the command.
        #expect(sandbox.run("--at", "0", "add", "main", "x") == .failure(2, """
            tabstore: error: Unknown option '--at'
            Usage: tabstore <subcommand> [<arguments> ...] [--db <path>] [--json]
            See 'tabstore help' for more.

            """))
        #expect(!sandbox.exists(sandbox.database))
    }

    @Test func aMissingArgumentIsAUsageError() {
        let sandbox = Sandbox()
        #expect(sandbox.run("select", "main") == .failure(2, """
            tabstore: error: Missing expected argument '<tab>'
            Usage: tabstore select <set> <tab>
            See 'tabstore help select' for more.

            """))
    }

    @Test func anExtraArgumentIsAUsageError() {
        let sandbox = Sandbox()
        #expect(sandbox.run("select", "main", "0", "1") == .failure(2, """
            tabstore: error: Unexpected argument '1'
            Usage: tabstore select <set> <tab>
            See 'tabstore help select' for more.

            """))
    }

    @Test func anOptionWithoutItsValueIsAUsageError() {
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["list", "--db"]) == .failure(2, """
            tabstore: error: Missing value for '--db <path>'
            Usage: tabstore list [<set>]
            See 'tabstore help list' for more.

            """))
        #expect(sandbox.run("--json", "select", "main", "--title") == .failure(2,
            #"{"error":{"code":2,"message":"Missing value for '--title <title>'"}}"# + "\n"))
    }

    @Test func aFlagGivenAValueIsAUsageError() {
        let sandbox = Sandbox()
        // Not a valid --json, so the error is text.
        #expect(sandbox.run("list", "--json=yes") == .failure(2, """
            tabstore: error: Option '--json' takes no value
            Usage: tabstore list [<set>]
            See 'tabstore help list' for more.

            """))
    }

    @Test func withJSONAUsageErrorIsOneObject() {
        let sandbox = Sandbox()
        #expect(sandbox.run("--json", "move", "main", "0", "x") == .failure(2,
            #"{"error":{"code":2,"message":"The value 'x' is invalid for '<to>'"}}"# + "\n"))
    }

    @Test func negativeIntegersAreValuesNotOptions() {
        let sandbox = Sandbox()
        sandbox.add("main", "a", "b", "c")
        #expect(sandbox.run("select", "main", "-2") == .ok("selected 1: b\n"))
        #expect(sandbox.run("select", "main", "-x") == .failure(2, """
            tabstore: error: Unknown option '-x'; if '-x' is a title or name, put '--' before it
            Usage: tabstore select <set> <tab>
            See 'tabstore help select' for more.

            """))
    }

    @Test func doubleDashEndsOptions() {
        let sandbox = Sandbox()
        #expect(sandbox.run("add", "main", "--", "--json", "-h", "--db") == .ok("added 3 tabs to main\n"))
        #expect(sandbox.list("main") == "* 0  --json\n  1  -h\n  2  --db\n")
        #expect(sandbox.run("select", "main", "--", "-h") == .ok("selected 1: -h\n"))
    }

    @Test func globalOptionsGoBeforeOrAfterTheCommand() {
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["add", "main", "a", "--db", sandbox.database, "--json"]).code == 0)
        #expect(sandbox.runWithoutDatabase(["--json", "--db=\(sandbox.database)", "restore", "main"])
            == .ok(#"{"set":"main","selectedIndex":0,"title":"a"}"# + "\n"))
    }

    @Test func anEmptyDatabasePathIsAUsageError() {
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["list", "--db="]) == .failure(2, """
            tabstore: error: --db is empty; leave it out or give a path
            Usage: tabstore list [<set>]
            See 'tabstore help list' for more.

            """))
    }

    @Test func anArgumentThatIsNotUTF8IsAUsageErrorNamingItsPosition() {
        let sandbox = Sandbox()
        // Foundation's Process takes Strings, so let the shell pass the raw byte 0xFF.
        let output = sandbox.runProcess("/bin/sh", ["-c", #""$0" --db "$1" add main "$(printf 'caf\377')""#, TabstoreBinary.path, sandbox.database])
        #expect(output == .failure(2, """
            tabstore: error: Argument 5 is not valid UTF-8
            Usage: tabstore add <set> [<title> ...] [--at <index>]
            See 'tabstore help add' for more.

            """))
        #expect(!sandbox.exists(sandbox.database))
    }

    @Test func versionWinsOverTheCommandAndHonoursJSON() {
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["--version"]) == .ok("tabstore 0.1.0\n"))
        #expect(sandbox.runWithoutDatabase(["list", "--version", "--json"]) == .ok(#"{"version":"0.1.0"}"# + "\n"))
    }
}
