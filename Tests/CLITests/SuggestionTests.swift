import Testing
@testable import TabStoreCLI

/// An unknown command or option close to a known one gets one suggestion, still exit 2.
@Suite struct SuggestionTests {
    /// (golden file, command line); each golden file is the whole outcome: exit code,
    /// stdout and stderr. `RECORD_GOLDEN=1` re-records them.
    static let cases: [(String, [String])] = [
        ("suggestion-missing-letter", ["lst"]),
        ("suggestion-swapped-letters", ["selcet", "main", "0"]),
        ("suggestion-option", ["list", "--jsn"]),
        ("suggestion-option-one-dash", ["list", "-json"]),
        ("suggestion-command-option", ["add", "main", "x", "--att", "0"]),
        ("suggestion-help-subcommand", ["help", "renam-set"]),
        ("suggestion-json", ["--json", "lst"]),
        ("suggestion-none-when-far", ["frobnicate"]),
    ]

    @Test(arguments: cases)
    func anUnknownNameNearAKnownOneGetsOneSuggestion(name: String, arguments: [String]) {
        let sandbox = Sandbox()
        let output = sandbox.runWithoutDatabase(["--db", sandbox.database] + arguments)
        #expect(output.code == 2)
        GoldenFile.expect(output.description + "\n", matches: "\(name).txt")
        #expect(!sandbox.exists(sandbox.database))
    }

    @Test func editDistanceCountsASwapOfNeighboursAsOneEdit() {
        #expect(Suggestion.editDistance(Array("selcet"), Array("select")) == 1)
        #expect(Suggestion.editDistance(Array("lst"), Array("list")) == 1)
        #expect(Suggestion.editDistance(Array(""), Array("add")) == 3)
        #expect(Suggestion.editDistance(Array("history"), Array("history")) == 0)
    }

    @Test func shortNamesAllowOneEditLongerOnesTwo() {
        let names = Program.spec.visibleCommands.map(\.name)
        #expect(Suggestion.nearest(to: "lis", in: names) == "list")
        #expect(Suggestion.nearest(to: "lt", in: names) == nil)
        #expect(Suggestion.nearest(to: "histroy", in: names) == "history")
        #expect(Suggestion.nearest(to: "hisxxxy", in: names) == nil)
        // A tie goes to the first in the table's order.
        #expect(Suggestion.nearest(to: "remove-sel", in: ["remove-set", "remove-sez"]) == "remove-set")
    }
}
