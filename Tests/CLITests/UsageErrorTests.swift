import Testing

/// Exit code 2: the command line does not match the declaration. Nothing is opened or written.
@Suite struct UsageErrorTests {
    /// Bad command lines of every kind the scanner refuses, each with the help it names.
    static let badLines: [(arguments: [String], help: String)] = [
        (["frobnicate"], "tabstore help"), (["lst"], "tabstore help"), (["--at", "0", "add", "main", "x"], "tabstore help"),
        (["select", "main"], "tabstore help select"), (["select", "main", "0", "1"], "tabstore help select"),
        (["select", "main", "0", "--force"], "tabstore help select"), (["list", "--db"], "tabstore help list"),
        (["list", "--json=yes"], "tabstore help list"), (["add", "main", "-x"], "tabstore help add"),
        (["add", "main", "x", "--at", "one"], "tabstore help add"), (["move", "main", "0", "far"], "tabstore help move"),
        (["history", "main", "--limit", "-1"], "tabstore help history"), (["completions", "csh"], "tabstore help completions"),
        (["help", "nope"], "tabstore help"), (["help", "select", "--man"], "tabstore help help"),
        (["show", "main", "--width", "0"], "tabstore help show"), (["select", "main", "--title"], "tabstore help select"),
    ]

    /// A usage error is one line naming what was wrong and the help to read, and that help exists.
    @Test(arguments: badLines)
    func aUsageErrorIsOneLineNamingItsHelp(arguments: [String], help: String) {
        let sandbox = Sandbox()
        let output = sandbox.runWithoutDatabase(arguments, environment: ["TABSTORE_DB": sandbox.database])
        #expect(output.code == 2 && output.stdout == "")
        #expect(output.stderr.hasPrefix("tabstore: error: ") && output.stderr.hasSuffix(" (see '\(help)')\n"))
        #expect(output.stderr.split(separator: "\n", omittingEmptySubsequences: false).count == 2, "\(output.stderr)")
        let helpWords = help.split(separator: " ").dropFirst().map(String.init)
        #expect(sandbox.runWithoutDatabase(helpWords).code == 0)
        #expect(!sandbox.exists(sandbox.database))
    }

    @Test func anUnknownSubcommandIsAUsageErrorThatOpensNothing() {
        let sandbox = Sandbox()
        #expect(sandbox.run("frobnicate", "main", "0") == .failure(2, """
            tabstore: error: Unknown subcommand 'frobnicate' (see 'tabstore help')

            """))
        #expect(!sandbox.exists(sandbox.database))
    }

    @Test func anUnknownOptionIsAUsageErrorAndCommandOptionsComeOnlyAfterTheCommand() {
        let sandbox = Sandbox()
        #expect(sandbox.run("select", "main", "0", "--force") == .failure(2, """
            tabstore: error: Unknown option '--force' (see 'tabstore help select')

            """))
        // A command's option is not known before the command.
        #expect(sandbox.run("--at", "0", "add", "main", "x") == .failure(2, """
            tabstore: error: Unknown option '--at' (see 'tabstore help')

            """))
        #expect(!sandbox.exists(sandbox.database))
    }

    /// A tab given twice (as an argument and with `--title`, `--index` or `--id`) is named
    /// as the second tab it is, not as a stray argument.
    @Test func aSecondTabByOptionIsNamedAsOne() {
        let sandbox = Sandbox()
        let id = "45740fbb-e9ee-4d96-bc04-db06a51ddf81"
        let lines: [(arguments: [String], spelling: String)] = [
            (["select", "main", "--index", "1", "--title", "Home"], "--title Home"),
            (["select", "main", "1", "--title", "A"], "--title A"),
            (["select", "main", "--title", "A", "--title", "C"], "--title C"),
            (["select", "main", "--title", "A", "--index", "-1"], "--index -1"),
            (["select", "main", "--index", "1", "--id", id], "--id \(id)"),
        ]
        for line in lines {
            #expect(sandbox.runWithoutDatabase(line.arguments) == .failure(2, """
                tabstore: error: '\(line.spelling)' is a second tab, but 'select' takes one '<tab>' (see 'tabstore help select')

                """))
        }
        // Two tabs typed as arguments are still one argument too many.
        #expect(sandbox.runWithoutDatabase(["select", "main", "A", "B"]) == .failure(2, """
            tabstore: error: Unexpected argument 'B' (see 'tabstore help select')

            """))
    }

    @Test func aMissingArgumentIsAUsageError() {
        let sandbox = Sandbox()
        #expect(sandbox.run("select", "main") == .failure(2, """
            tabstore: error: Missing expected argument '<tab>' (see 'tabstore help select')

            """))
    }

    @Test func anExtraArgumentIsAUsageError() {
        let sandbox = Sandbox()
        #expect(sandbox.run("select", "main", "0", "1") == .failure(2, """
            tabstore: error: Unexpected argument '1' (see 'tabstore help select')

            """))
    }

    @Test func anOptionWithoutItsValueIsAUsageError() {
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["list", "--db"]) == .failure(2, """
            tabstore: error: Missing value for '--db <path>' (see 'tabstore help list')

            """))
        #expect(sandbox.run("--json", "select", "main", "--title") == .failure(2,
            #"{"error":{"code":2,"message":"Missing value for '--title <title>'"}}"# + "\n"))
    }

    @Test func aFlagGivenAValueIsAUsageError() {
        let sandbox = Sandbox()
        // Not a valid --json, so the error is text.
        #expect(sandbox.run("list", "--json=yes") == .failure(2, """
            tabstore: error: Option '--json' takes no value (see 'tabstore help list')

            """))
    }

    @Test func withJSONAUsageErrorIsOneObject() {
        let sandbox = Sandbox()
        #expect(sandbox.run("--json", "move", "main", "0", "x") == .failure(2,
            #"{"error":{"code":2,"message":"The value 'x' is invalid for '<to>': it is not an integer"}}"# + "\n"))
    }

    @Test func negativeIntegersAreValuesNotOptions() {
        let sandbox = Sandbox()
        sandbox.add("main", "a", "b", "c")
        #expect(sandbox.run("select", "main", "-2") == .ok("selected 1: b\n"))
        #expect(sandbox.run("select", "main", "-x") == .failure(2, """
            tabstore: error: Unknown option '-x'; if '-x' is a title or name, put '--' before it (see 'tabstore help select')

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
            tabstore: error: --db is empty; leave it out or give a path (see 'tabstore help list')

            """))
    }

    @Test func anArgumentThatIsNotUTF8IsAUsageErrorNamingItsPosition() {
        let sandbox = Sandbox()
        // Foundation's Process takes Strings, so let the shell pass the raw byte 0xFF.
        let output = sandbox.runProcess("/bin/sh", ["-c", #""$0" --db "$1" add main "$(printf 'caf\377')""#, TabstoreBinary.path, sandbox.database])
        #expect(output == .failure(2, """
            tabstore: error: Argument 5 is not valid UTF-8 (see 'tabstore help add')

            """))
        #expect(!sandbox.exists(sandbox.database))
    }

    @Test func versionWinsOverTheCommandAndHonoursJSON() {
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["--version"]) == .ok("tabstore 0.1.0\n"))
        #expect(sandbox.runWithoutDatabase(["list", "--version", "--json"]) == .ok(#"{"version":"0.1.0"}"# + "\n"))
    }
}
