import Testing

/// `--if-revision` on every command that changes a set: optimistic concurrency.
@Suite struct IfRevisionTests {
    /// `main` at revision 4: [Home, Reviews*, Map], after a remove and a reopen.
    private func atRevisionFour() -> Sandbox {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews", "Map")
        _ = sandbox.run("select", "main", "Reviews")
        _ = sandbox.run("remove", "main", "Map")
        _ = sandbox.run("reopen", "main")
        #expect(sandbox.run("--json", "list", "main").stdout.hasPrefix(#"{"set":"main","revision":4,"#))
        return sandbox
    }

    static let commands: [[String]] = [
        ["add", "main", "New"], ["select", "main", "0"], ["remove", "main", "0"], ["move", "main", "0", "1"],
        ["rename", "main", "0", "Start"], ["reopen", "main"], ["rename-set", "main", "other"], ["remove-set", "main"],
    ]

    @Test(arguments: commands)
    func aStaleRevisionChangesNothing(command: [String]) {
        let sandbox = atRevisionFour()
        _ = sandbox.run("remove", "main", "Map")  // now at 5, with Map to reopen
        let before = sandbox.run("--json", "list", "main").stdout
        #expect(sandbox.runWithoutDatabase(["--db", sandbox.database] + command + ["--if-revision", "4"]) == .failure(1,
            "tabstore: error: set \"main\" changed since revision 4 (now 5)\n"))
        #expect(sandbox.run("--json", "list", "main").stdout == before)
    }

    @Test(arguments: commands)
    func theCurrentRevisionIsAccepted(command: [String]) {
        let sandbox = atRevisionFour()
        _ = sandbox.run("remove", "main", "Map")
        let output = sandbox.runWithoutDatabase(["--db", sandbox.database] + command + ["--if-revision=5"])
        #expect(output.code == 0 && output.stderr == "", "\(output)")
    }

    @Test func theRevisionComesFromListAndTheEditsChainOn() {
        let sandbox = atRevisionFour()
        #expect(sandbox.run("select", "main", "Home", "--if-revision", "4") == .ok("selected 0: Home\n"))
        #expect(sandbox.run("move", "main", "Home", "-1", "--if-revision", "5") == .ok("moved Home to 2\n"))
        #expect(sandbox.run("rename", "main", "Home", "Start", "--if-revision", "5") == .failure(1,
            "tabstore: error: set \"main\" changed since revision 5 (now 6)\n"))
        #expect(sandbox.list("main") == "  0  Reviews\n  1  Map\n* 2  Home\n")
    }

    @Test func addCountsAMissingSetAsRevisionZero() {
        let sandbox = Sandbox()
        #expect(sandbox.run("add", "new", "Home", "--if-revision", "0") == .ok("added 1 tab to new\n"))
        #expect(sandbox.run("add", "new", "Map", "--if-revision", "0") == .failure(1,
            "tabstore: error: set \"new\" changed since revision 0 (now 1)\n"))
        #expect(sandbox.list("new") == "* 0  Home\n")
    }

    @Test func aReselectionAtAStaleRevisionIsRefusedToo() {
        let sandbox = atRevisionFour()
        #expect(sandbox.run("select", "main", "Reviews", "--if-revision", "3") == .failure(1,
            "tabstore: error: set \"main\" changed since revision 3 (now 4)\n"))
        #expect(sandbox.run("select", "main", "Reviews", "--if-revision", "4") == .ok("already selected 1: Reviews\n"))
    }

    @Test func jsonError() {
        let sandbox = atRevisionFour()
        #expect(sandbox.run("--json", "remove-set", "main", "--if-revision", "1") == .failure(1,
            #"{"error":{"code":1,"message":"set \"main\" changed since revision 1 (now 4)"}}"# + "\n"))
    }

    @Test(arguments: [("x", ": it is not an integer"), ("1.5", ": it is not an integer"), ("99999999999999999999", ": the maximum is 9223372036854775807"), ("-99999999999999999999", ": the minimum is 0"), ("-1", ": the minimum is 0")])
    func aRevisionMustBeANonNegativeInteger(value: String, limit: String) {
        let sandbox = Sandbox()
        #expect(sandbox.run("select", "main", "0", "--if-revision", value) == .failure(2, """
            tabstore: error: The value '\(value)' is invalid for '--if-revision <revision>'\(limit) (see 'tabstore help select')

            """))
        #expect(!sandbox.exists(sandbox.database))
    }

    @Test func aMissingValueIsAUsageError() {
        let sandbox = Sandbox()
        #expect(sandbox.run("reopen", "main", "--if-revision") == .failure(2, """
            tabstore: error: Missing value for '--if-revision <revision>' (see 'tabstore help reopen')

            """))
    }

    @Test(arguments: commands.map { $0[0] })
    func everyChangingCommandDocumentsIt(command: String) {
        let help = Sandbox().runWithoutDatabase(["help", command]).stdout
        #expect(help.contains("\n  --if-revision <revision>\n"))
        #expect(help.contains("Change nothing and fail (exit 1) unless the set is"))
    }

    @Test(arguments: ["list", "show", "history", "watch", "restore", "export", "info"])
    func readingCommandsDoNotTakeIt(command: String) {
        #expect(Sandbox().run(command, "--if-revision", "1").stderr == "tabstore: error: Unknown option '--if-revision' (see 'tabstore help \(command)')\n")
    }

    @Test func aRecreatedSetDoesNotAcceptTheOldSetsRevision() {
        let sandbox = Sandbox()
        #expect(sandbox.run("add", "s", "Mail", "Calendar", "--json").stdout.hasPrefix(#"{"set":"s","revision":1,"#))
        _ = sandbox.run("remove-set", "s")
        #expect(sandbox.run("add", "s", "Bank", "Shop", "--json").stdout.hasPrefix(#"{"set":"s","revision":3,"#))
        #expect(sandbox.run("remove", "s", "0", "--if-revision", "1") == .failure(1,
            "tabstore: error: set \"s\" changed since revision 1 (now 3)\n"))
        #expect(sandbox.list("s") == "* 0  Bank\n  1  Shop\n")
    }

    @Test func aSetRenamedOntoAUsedNameGoesOnAboveIt() {
        let sandbox = Sandbox()
        sandbox.add("b", "Old")
        _ = sandbox.run("add", "b", "Older")
        _ = sandbox.run("remove-set", "b")
        sandbox.add("a", "New")
        _ = sandbox.run("rename-set", "a", "b")
        #expect(sandbox.run("select", "b", "0", "--if-revision", "1") == .failure(1,
            "tabstore: error: set \"b\" changed since revision 1 (now 4)\n"))
        #expect(sandbox.run("add", "b", "X", "--if-revision", "4") == .ok("added 1 tab to b\n"))
    }

    @Test func aRevisionNotYetReachedSaysSo() {
        let sandbox = atRevisionFour()
        #expect(sandbox.run("select", "main", "0", "--if-revision", "9") == .failure(1,
            "tabstore: error: set \"main\" never reached revision 9 (it is at revision 4)\n"))
    }

    @Test func aMissingSetSaysItDoesNotExist() {
        let sandbox = Sandbox()
        #expect(sandbox.run("add", "new", "Home", "--if-revision", "3") == .failure(1,
            "tabstore: error: set \"new\" does not exist, so it is not at revision 3\n"))
        #expect(sandbox.run("remove", "new", "0", "--if-revision", "3") == .failure(1,
            "tabstore: error: no tab set named \"new\"\n"))
        sandbox.add("gone", "A")
        _ = sandbox.run("remove-set", "gone")
        #expect(sandbox.run("add", "gone", "B", "--if-revision", "0") == .failure(1,
            "tabstore: error: set \"gone\" does not exist: its name was left at revision 2, not 0\n"))
        #expect(sandbox.run("list") == .ok(""))
        #expect(sandbox.run("add", "gone", "B", "--if-revision", "2") == .ok("added 1 tab to gone\n"))
    }
}
