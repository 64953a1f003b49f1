import Foundation
import Testing
@testable import TabStoreCLI

@Suite struct ManPageTests {
    static var hasMan: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/man") }

    @Test(.enabled(if: hasMan, "man is not installed (.ci/run installs man-db)"))
    func theManPageRendersWithManWithoutWarningsAndListsEveryCommand() {
        let sandbox = Sandbox()
        let page = sandbox.runWithoutDatabase(["help", "--man"])
        #expect(page.code == 0 && page.stderr == "")
        let file = sandbox.write(page.stdout, to: "tabstore.1")
        let rendered = sandbox.runProcess("/usr/bin/man", ["--warnings", "-l", file], environment: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"])
        #expect(rendered.code == 0)
        #expect(rendered.stderr == "")
        let lines = rendered.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("TABSTORE(1)") == true)
        for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXAMPLES", "EXIT STATUS", "ENVIRONMENT"] {
            #expect(lines.contains(heading), "no section \(heading)")
        }
        // Each command is a subsection with its usage line under it, as in the help.
        for command in Program.spec.visibleCommands {
            let usage = HelpText.usage(of: command, program: Program.spec)
            let at = lines.firstIndex(of: "   \(command.name)")
            #expect(at.map { lines[$0 + 1].trimmingCharacters(in: .whitespaces) } == usage, "command \(command.name)")
        }
        #expect(!rendered.stdout.contains("__complete"))
    }

    @Test func theManPageIsOnlyTheWholeManual() {
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["help", "select", "--man"]) == .failure(2, """
            tabstore: error: '--man' prints the whole manual; leave out '<subcommand>' (see 'tabstore help help')

            """))
    }

    @Test func roffEscapingDefusesControlLinesAndSpellsOutNonASCII() {
        #expect(ManPage.escaped(".TH x") == "\\&.TH x")
        #expect(ManPage.escaped("'quoted") == "\\&'quoted")
        #expect(ManPage.escaped(#"a\b --db"#) == #"a\eb \-\-db"#)
        #expect(ManPage.escaped("홈 ‾") == #"\[uD648] \[u203E]"#)
    }
}
