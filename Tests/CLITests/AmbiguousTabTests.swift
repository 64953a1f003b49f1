import Testing

/// An integer that is an index and also another tab's title is refused by
/// every command that takes a <tab>; `--index` and `--title` say which is meant.
@Suite struct AmbiguousTabTests {
    private func years() -> Sandbox {
        let sandbox = Sandbox()
        sandbox.add("years", "2024", "2025", "1", "0")
        return sandbox
    }

    private let listing = "* 0  2024\n  1  2025\n  2  1\n  3  0\n"

    @Test(arguments: [["remove", "years", "1"], ["move", "years", "1", "0"], ["rename", "years", "1", "x"], ["select", "years", "1"]])
    func anIntegerThatIsAlsoATitleIsRefused(arguments: [String]) {
        let sandbox = years()
        #expect(sandbox.run(arguments) == .failure(1, """
            tabstore: error: "1" is ambiguous in set "years": index 1 is the tab "2025", and the tab at index 2 is titled "1"; say '--index 1' or '--title 1'

            """))
        #expect(sandbox.list("years") == listing)
    }

    @Test func anOutOfRangeIndexThatIsATitleIsStillAmbiguous() {
        let sandbox = Sandbox()
        sandbox.add("s", "7", "x")
        #expect(sandbox.run("remove", "s", "7") == .failure(1, """
            tabstore: error: "7" is ambiguous in set "s": index 7 is out of range, and the tab at index 0 is titled "7"; say '--index 7' or '--title 7'

            """))
    }

    @Test func indexAndTitleSayWhichIsMeant() {
        let sandbox = years()
        #expect(sandbox.run("remove", "years", "--index", "1") == .ok("removed 1 tab from years\n"))
        #expect(sandbox.list("years") == "* 0  2024\n  1  1\n  2  0\n")
        #expect(sandbox.run("remove", "years", "--title", "1") == .ok("removed 1 tab from years\n"))
        #expect(sandbox.list("years") == "* 0  2024\n  1  0\n")
        #expect(sandbox.run("select", "years", "--index=-1") == .ok("selected 1: 0\n"))
    }

    @Test func titleTakesAValueThatLooksLikeAnOption() {
        let sandbox = Sandbox()
        sandbox.add("s", "a", "-x", "--y")
        #expect(sandbox.run("remove", "s", "--title", "-x") == .ok("removed 1 tab from s\n"))
        #expect(sandbox.run("select", "s", "--title", "--y") == .ok("selected 1: --y\n"))
        #expect(sandbox.list("s") == "  0  a\n* 1  --y\n")
    }

    @Test func anIndexThatIsNotAnIntegerIsAUsageError() {
        let sandbox = years()
        #expect(sandbox.run("remove", "years", "--index", "x") == .failure(2, """
            tabstore: error: The value 'x' is invalid for '--index <index>': it is not an integer (see 'tabstore help remove')

            """))
    }
}
