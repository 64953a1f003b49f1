import Foundation
import Testing
@testable import TabStoreCLI

/// What tabstore does when a person, not a script, is on the other end: run under a
/// pseudo-terminal with `script`, which copies what the terminal shows to its stdout.
@Suite struct TerminalTests {
    static var hasScript: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/script") }

    /// Runs `shell` under a pseudo-terminal; returns what the terminal showed, with the
    /// terminal's `\r\n` line ends as `\n`.
    static func onTerminal(_ sandbox: Sandbox, _ shell: String, environment: [String: String] = [:]) -> Output {
        var output = sandbox.runProcess("/usr/bin/script", ["-qec", shell, "/dev/null"], environment: environment)
        output.stdout = output.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        return output
    }

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }

    /// A document of `count` tabs in one set, written to the sandbox.
    static func document(_ sandbox: Sandbox, tabs count: Int) -> String {
        let titles = (0..<count).map { "\"tab \($0)\"" }.joined(separator: ",")
        return sandbox.write(#"{"format":"tabstore","version":1,"sets":[{"name":"big","selectedIndex":0,"tabs":["# + titles + "]}]}", to: "big.json")
    }

    /// The import reads standard input from a pipe that stays silent for a second, so the
    /// work outlasts half a second however fast the machine is.
    static func slowImport(_ sandbox: Sandbox, _ document: String, json: Bool = false) -> String {
        "(sleep 1; cat \(quoted(document))) | \(quoted(TabstoreBinary.path)) --db \(quoted(sandbox.database)) import -\(json ? " --json" : "")"
    }

    @Test(.enabled(if: hasScript, "script (util-linux) is not installed"))
    func aLongImportShowsProgressOnATerminalAndErasesIt() {
        let sandbox = Sandbox()
        let document = Self.document(sandbox, tabs: 3000)
        // stdout to a file: what the terminal shows is standard error alone.
        let shown = Self.onTerminal(sandbox, Self.slowImport(sandbox, document) + " > \(Self.quoted(sandbox.folder + "/out.txt"))")
        #expect(shown.code == 0)
        #expect(sandbox.runProcess("/bin/cat", [sandbox.folder + "/out.txt"]) == .ok("imported 1 set\n"))
        // Each draw returns to the start of the line; the last one blanks it.
        let draws = shown.stdout.split(separator: "\r", omittingEmptySubsequences: false).dropFirst()
        #expect(shown.stdout.hasPrefix("\rimport: 1/3000 tabs (0%)"))
        #expect(draws.last == "")
        let texts = draws.dropLast().map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(texts.last == "")
        for text in texts.dropLast() {
            #expect(text.wholeMatch(of: /import: [0-9]+\/3000 tabs \([0-9]+%\)/) != nil, "\(text)")
        }
        #expect(sandbox.list("big").hasPrefix("*    0  tab 0\n     1  tab 1\n"))
    }

    @Test(.enabled(if: hasScript, "script (util-linux) is not installed"))
    func aLongImportShowsNoProgressThroughAPipeOrWithJSON() {
        let sandbox = Sandbox()
        let document = Self.document(sandbox, tabs: 3000)
        #expect(sandbox.runProcess("/bin/sh", ["-c", Self.slowImport(sandbox, document)]) == .ok("imported 1 set\n"))
        let json = Self.onTerminal(sandbox, Self.slowImport(sandbox, document, json: true) + " --replace")
        #expect(json == .ok(#"{"imported":0,"unchanged":1,"sets":["big"]}"# + "\n"))
    }

    @Test func theProgressLineRedrawsInPlaceAndErasesItself() {
        var written: [String] = []
        let line = ProgressLine(label: "import", unit: "tabs", delay: .zero, interval: .zero) { written.append($0) }
        line.update(5, of: 200)
        line.update(200, of: 200)
        line.finish()
        line.finish()
        #expect(written == ["\rimport: 5/200 tabs (2%)", "\rimport: 200/200 tabs (100%)", "\r                           \r"])
    }

    @Test func theProgressLineDrawsNothingWithoutAWriter() {
        let line = ProgressLine(label: "import", unit: "tabs", delay: .zero, interval: .zero, write: nil)
        line.update(1, of: 2)
        line.finish()  // nothing to erase, nothing to crash on
    }

    @Test(.enabled(if: hasScript, "script (util-linux) is not installed"))
    func aDumbTerminalGetsNoEscapeCodesAsWithNoColor() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews")
        let show = "\(Self.quoted(TabstoreBinary.path)) --db \(Self.quoted(sandbox.database)) show main --width 20"
        let plain = " Home  Reviews\n ‾‾‾‾\n"
        #expect(Self.onTerminal(sandbox, show, environment: ["TERM": "dumb"]) == .ok(plain))
        #expect(Self.onTerminal(sandbox, show, environment: ["TERM": "xterm", "NO_COLOR": "1"]) == .ok(plain))
        #expect(Self.onTerminal(sandbox, show, environment: ["TERM": "xterm"]) == .ok(" \u{1B}[1;4mHome\u{1B}[0m  Reviews\n"))
    }
}
