import Foundation
import Testing
@testable import TabStoreCLI

@Suite struct HelpTests {
    static let commandNames = Program.spec.visibleCommands.map(\.name)

    @Test(arguments: commandNames)
    func everySpellingOfHelpPrintsTheSameText(command: String) {
        let sandbox = Sandbox()
        let expected = sandbox.runWithoutDatabase(["help", command])
        #expect(expected.code == 0)
        #expect(expected.stderr == "")
        #expect(expected.stdout.hasPrefix("OVERVIEW: "))
        #expect(expected.stdout.contains("\nUSAGE: tabstore \(command)"))
        #expect(sandbox.runWithoutDatabase([command, "--help"]) == expected)
        #expect(sandbox.runWithoutDatabase([command, "-h"]) == expected)
        #expect(sandbox.runWithoutDatabase(["--help", command]) == expected)
        // Help wins over what else is wrong on the line, and opens no database.
        #expect(sandbox.runWithoutDatabase([command, "x", "y", "z", "--bad", "-h", "--db", sandbox.database]) == expected)
        #expect(!sandbox.exists(sandbox.database))
    }

    @Test func rootHelpIsTheSameForEverySpellingAndWithoutASubcommand() {
        let sandbox = Sandbox()
        let expected = sandbox.runWithoutDatabase(["--help"])
        #expect(expected.code == 0 && expected.stderr == "" && expected.stdout.hasPrefix("OVERVIEW: "))
        #expect(sandbox.runWithoutDatabase(["-h"]) == expected)
        #expect(sandbox.runWithoutDatabase(["help"]) == expected)
        #expect(sandbox.runWithoutDatabase([]) == expected)
        // With --json, help is one line of JSON too.
        let json = sandbox.runWithoutDatabase(["--json", "--db", sandbox.database])
        #expect(json.code == 0 && json.stderr == "" && json.stdout.split(separator: "\n").count == 1)
        let object = try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: String]
        #expect(object == ["help": expected.stdout])
    }

    /// `Golden/help-tabstore.txt` for the root, `Golden/help-COMMAND.txt` for each command;
    /// `RECORD_GOLDEN=1` re-records them.
    @Test(arguments: ["tabstore"] + commandNames)
    func everyHelpTextMatchesItsGoldenFile(command: String) {
        let sandbox = Sandbox()
        let output = sandbox.runWithoutDatabase(command == "tabstore" ? ["--help"] : ["help", command])
        #expect(output.code == 0 && output.stderr == "")
        GoldenFile.expect(output.stdout, matches: "help-\(command).txt")
    }

    @Test func theGlobalHelpEndsWithExamplesThatAreRealCommands() {
        let text = HelpText.rootHelp(of: Program.spec)
        let examples = text.components(separatedBy: "\nEXAMPLES:\n").last ?? ""
        let commandLines = examples.split(separator: "\n").filter { $0.hasPrefix("  tabstore ") || $0.hasPrefix("  source ") }
        #expect(commandLines.count == Program.spec.examples.count)
        for example in Program.spec.examples {
            // Every `tabstore WORD` in an example names a real subcommand.
            for part in example.commandLine.components(separatedBy: "tabstore ").dropFirst() {
                let words = part.split(separator: " ").map(String.init).filter { !$0.hasPrefix("-") }
                #expect(Program.spec.command(named: words.first ?? "") != nil, "\(example.commandLine)")
            }
        }
    }

    @Test func hiddenCommandsAreLeftOutOfHelp() {
        let hidden = Program.spec.commands.filter(\.isHidden).map(\.name)
        #expect(hidden == ["__complete"])
        #expect(!HelpText.rootHelp(of: Program.spec).contains("__complete"))
        #expect(Sandbox().runWithoutDatabase(["help", "__complete"]).code == 2)
    }

    @Test func helpForAnUnknownSubcommandIsAUsageErrorWithASuggestion() {
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["help", "nope"]) == .failure(2, """
            tabstore: error: Unknown subcommand 'nope'
            Usage: tabstore help [<subcommand>] [--man]
            See 'tabstore help help' for more.

            """))
        #expect(sandbox.runWithoutDatabase(["help", "slect"]) == .failure(2, """
            tabstore: error: Unknown subcommand 'slect'; did you mean 'select'?
            Usage: tabstore help [<subcommand>] [--man]
            See 'tabstore help help' for more.

            """))
    }

    @Test(arguments: [nil] + commandNames.map(Optional.some))
    func helpFitsEightyColumns(command: String?) {
        let text = command.flatMap(Program.spec.command(named:)).map { HelpText.help(for: $0, program: Program.spec) }
            ?? HelpText.rootHelp(of: Program.spec)
        // JSON shape examples and install lines may run longer; they are not wrapped so they can be copied.
        let long = text.split(separator: "\n").filter { $0.count > 80 && !$0.hasPrefix("  {") && !$0.hasPrefix("  bash:") }
        #expect(long.isEmpty)
    }
}
