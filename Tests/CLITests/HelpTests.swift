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

    /// A newcomer reads how to call tabstore and what it can do before anything else.
    @Test func theRootHelpShowsUsageAndTheCommandsFirst() {
        let lines = HelpText.rootHelp(of: Program.spec).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.firstIndex { $0.hasPrefix("USAGE: ") } == 3)
        #expect(lines[4] == "" && lines[5] == "SUBCOMMANDS:")
        let listed = lines[6...].prefix { $0.hasPrefix("  ") }.filter { !$0.hasPrefix("   ") }
        #expect(listed.map { String($0.dropFirst(2).prefix { $0 != " " }) } == Self.commandNames)
        #expect(!lines.contains { $0.hasPrefix("Exit codes") })
    }

    /// `help exit-codes` (`Golden/help-exit-codes.txt`) lists every code the runner can
    /// exit with, in order; the root help points to it.
    @Test func theExitCodesAreAHelpTopic() {
        let sandbox = Sandbox()
        let output = sandbox.runWithoutDatabase(["help", "exit-codes"])
        #expect(output.code == 0 && output.stderr == "")
        GoldenFile.expect(output.stdout, matches: "help-exit-codes.txt")
        let codes = output.stdout.split(separator: "\n").dropFirst().filter { !$0.hasPrefix("   ") }.map { $0.dropFirst(2).prefix { $0 != " " } }
        #expect(codes == ["0", "1", "2", "3", "4"])
        #expect(codes.map { Int32($0) } == [ExitCode.success, ExitCode.requestFailed, ExitCode.usage, ExitCode.database, ExitCode.outputNotWritten])
        #expect(sandbox.runWithoutDatabase(["--json", "help", "exit-codes"]).stdout == JSONOutput.help(output.stdout).line)
        #expect(sandbox.runWithoutDatabase(["--help"]).stdout.contains("'tabstore help exit-codes'"))
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
            tabstore: error: Unknown subcommand 'nope' (see 'tabstore help')

            """))
        #expect(sandbox.runWithoutDatabase(["help", "slect"]) == .failure(2, """
            tabstore: error: Unknown subcommand 'slect'; did you mean 'select'? (see 'tabstore help')

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
