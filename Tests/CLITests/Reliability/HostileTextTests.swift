import Foundation
import Testing
@testable import TabStoreCLI
import TabStoreKit

/// Set names, titles and paths that would drive a terminal, in a file another program
/// wrote (tabstore refuses to write them): every text output shows them escaped, on a
/// real pseudo-terminal, byte for byte; and every name shown can be reached by typing
/// what is shown, after --escaped.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) at /usr/bin/script (bsdutils) for a pseudo-terminal"))
struct HostileTextTests {
    /// A stored name and how text output shows it.
    struct Case: Sendable, CustomStringConvertible {
        let stored: String
        let shown: String
        var description: String { shown }
    }

    static let cases = [
        Case(stored: "\u{1B}]0;pwned\u{7}", shown: #"\u{1b}]0;pwned\u{7}"#),
        Case(stored: "\u{1B}]52;c;Y3VybCBldmlsIHwgc2g=\u{7}", shown: #"\u{1b}]52;c;Y3VybCBldmlsIHwgc2g=\u{7}"#),
        Case(stored: "a\r\n* 9  fake", shown: #"a\r\n* 9  fake"#),
        Case(stored: "\u{1B}[2J", shown: #"\u{1b}[2J"#),
        Case(stored: "x\u{9B}31m", shown: #"x\u{9b}31m"#),
        Case(stored: "a\u{7F}b", shown: #"a\u{7f}b"#),
        Case(stored: "abc\u{202E}fed", shown: #"abc\u{202e}fed"#),
        Case(stored: "\u{2066}x", shown: #"\u{2066}x"#),
        Case(stored: "pay\u{200B}pal", shown: #"pay\u{200b}pal"#),
        Case(stored: "\u{FEFF}bom", shown: #"\u{feff}bom"#),
        Case(stored: "l\u{2028}m", shown: #"l\u{2028}m"#),
        Case(stored: "\\", shown: #"\"#),
        Case(stored: #"a\nb"#, shown: #"a\\nb"#),
        Case(stored: "a\tb", shown: #"a\tb"#),
    ]

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }

    static func hex(_ text: String) -> String {
        text.utf8.map { String(format: "%02X", $0) }.joined()
    }

    /// SQL that renames set `set` to `text` and the tab titled `title` to `text`.
    static func renaming(set: String, title: String, to text: String) -> String {
        "UPDATE tab_set SET name = CAST(X'\(hex(text))' AS TEXT) WHERE name = '\(set)';"
            + " UPDATE tab SET title = CAST(X'\(hex(text))' AS TEXT) WHERE title = '\(title)';"
    }

    /// Runs `shell` under a pseudo-terminal; what the terminal was sent, as it was sent.
    static func onTerminal(_ sandbox: Sandbox, _ shell: String) -> Output {
        sandbox.runProcess("/usr/bin/script", ["-qec", shell, "/dev/null"])
    }

    /// Compares bytes: Swift's `==` on strings would equate canonically equivalent text.
    static func expectBytes(_ actual: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(Array(actual.utf8) == Array(expected.utf8), "\n\(actual.debugDescription)\n\(expected.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test(arguments: cases)
    func everyTextOutputShowsAHostileNameEscapedAndReachesIt(_ name: Case) throws {
        let sandbox = Sandbox()
        sandbox.add("h", "t", "home")
        #expect(sandbox.runProcess("/usr/bin/sqlite3", [sandbox.database, Self.renaming(set: "h", title: "t", to: name.stored)]).code == 0)
        let (stored, shown) = (name.stored, Self.quoted(name.shown))
        // The word as a shell hands it to completion: with its quotes.
        let typedWord = Self.quoted("'" + name.shown + "'")
        let path = sandbox.folder + "/" + stored
        let script = """
        T=\(Self.quoted(TabstoreBinary.path)); D=\(Self.quoted(sandbox.database)); P=\(Self.quoted(path))
        run() { "$T" --db "$D" "$@"; echo "[$?]"; }
        run list
        run --escaped list \(shown)
        TERM=dumb run --escaped show \(shown) --width 80
        TERM=xterm run --escaped show \(shown) --width 80
        run __complete bash -- --db "$D" select ''
        run __complete bash -- --db "$D" --escaped select \(typedWord) ''
        run --escaped select \(shown) home
        run --escaped select \(shown) \(shown)
        run --escaped move \(shown) \(shown) 1
        run --escaped set-data \(shown) \(shown) k=v
        run --escaped remove \(shown) \(shown)
        run --escaped reopen \(shown)
        run --escaped rename \(shown) \(shown) renamed
        run --escaped add \(shown) new
        run --escaped history \(shown) --limit 2
        run --escaped select \(shown) nosuch
        run --escaped rename-set \(shown) clean
        sqlite3 "$D" "UPDATE tab_set SET name = CAST(X'\(Self.hex(stored))' AS TEXT) WHERE name = 'clean'"
        run --escaped remove-set \(shown)
        run list
        D="$P.sqlite"
        run add plain x
        run info
        run backup "$P.bak"
        run export --output "$P.json"
        """
        var output = Self.onTerminal(sandbox, script)
        // The one part that differs from run to run.
        output.stdout = output.stdout.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/, with: "TIME")
        let s = name.shown, folder = sandbox.folder
        let expected = [
            "\(s)  2 tabs  \(s)", "[0]",
            "* 0  \(s)", "  1  home", "[0]",
            " \(s)  home", " " + String(repeating: "‾", count: s.count), "[0]",
            " \u{1B}[1;4m\(s)\u{1B}[0m  home", "[0]",
            "words", s, "[0]",
            "words", s, "home", "[0]",
            "selected 1: home", "[0]",
            "selected 0: \(s)", "[0]",
            "moved \(s) to 1", "[0]",
            "set 1 entry on \(s)", "[0]",
            "removed 1 tab from \(s)", "[0]",
            "reopened 1: \(s)", "[0]",
            "renamed \(s) to renamed", "[0]",
            "added 1 tab to \(s)", "[0]",
            "9  TIME  added 1 tab at 2: new", "8  TIME  renamed 1: \(s) -> renamed", "[0]",
            #"tabstore: error: no tab titled "nosuch" in set "\#(s)""#, "[1]",
            "renamed set \(s) to clean", "[0]",
            "removed set \(s)", "[0]",
            "[0]",
            "added 1 tab to plain", "[0]",
            "path:            \(folder)/\(s).sqlite", "schema version:  \(Migration.latestVersion)", "sets:            1", "check:           ok", "[0]",
            "backed up to \(folder)/\(s).bak", "[0]",
            "exported 1 set to \(folder)/\(s).json", "[0]",
        ].map { $0 + "\r\n" }.joined()
        #expect(output.code == 0)
        Self.expectBytes(output.stdout, expected)
        #expect(sandbox.exists(path + ".bak") && sandbox.exists(path + ".json"))
    }

    /// `list --json` gives names as stored; a script passes one on as it is.
    @Test(arguments: cases)
    func aNameAsStoredReachesItsSetWithoutEscapes(_ name: Case) {
        let sandbox = Sandbox()
        sandbox.add("h", "t", "home")
        #expect(sandbox.runProcess("/usr/bin/sqlite3", [sandbox.database, Self.renaming(set: "h", title: "t", to: name.stored)]).code == 0)
        Self.expectBytes(sandbox.run("select", name.stored, "home").stdout, "selected 1: home\n")
        Self.expectBytes(sandbox.run("rename", name.stored, "--title", name.stored, "renamed").stdout, "renamed \(name.shown) to renamed\n")
        Self.expectBytes(sandbox.run("remove-set", name.stored).stdout, "removed set \(name.shown)\n")
    }

    /// A name copied from text output without --escaped names nothing: the error says
    /// how it is typed.
    @Test func aShownNameTypedWithoutEscapedIsRefusedWithHowToTypeIt() {
        let sandbox = Sandbox()
        sandbox.add("h", "t", "home")
        #expect(sandbox.runProcess("/usr/bin/sqlite3", [sandbox.database, Self.renaming(set: "h", title: "t", to: "a\tb")]).code == 0)
        #expect(sandbox.run("select", #"a\tb"#, "home") == .failure(1,
            #"tabstore: error: no tab set named "a\\tb"; to type a name as text output shows it, add --escaped"# + "\n"))
        #expect(sandbox.run("select", "a\tb", #"a\tb"#) == .failure(1,
            #"tabstore: error: no tab titled "a\\tb" in set "a\tb"; to type a name as text output shows it, add --escaped"# + "\n"))
        #expect(sandbox.run("--escaped", "select", #"a\tb"#, "nosuch") == .failure(1, #"tabstore: error: no tab titled "nosuch" in set "a\tb""# + "\n"))
    }

    /// No command line can hold a NUL, so such a name is reached only by its escape.
    @Test func aNameWithANULIsListedAndReachedByItsEscape() {
        let sandbox = Sandbox()
        sandbox.add("h", "t", "home")
        #expect(sandbox.runProcess("/usr/bin/sqlite3", [sandbox.database, Self.renaming(set: "h", title: "t", to: "a\u{0}b")]).code == 0)
        Self.expectBytes(sandbox.run("list").stdout, #"a\u{0}b  2 tabs  a\u{0}b"# + "\n")
        Self.expectBytes(sandbox.run("--escaped", "select", #"a\u{0}b"#, #"a\u{0}b"#).stdout, #"already selected 0: a\u{0}b"# + "\n")
        Self.expectBytes(sandbox.run("--escaped", "remove-set", #"a\u{0}b"#).stdout, #"removed set a\u{0}b"# + "\n")
        #expect(sandbox.run("list") == .ok(""))
    }

    /// A JSON string carries any text: an error names the set as stored, and what would act
    /// on a terminal is written as JSON's own `\u` escapes, not as text output shows it.
    @Test(arguments: cases)
    func aJSONErrorCarriesTheNameAsStored(_ name: Case) throws {
        let sandbox = Sandbox()
        sandbox.add("h", "t", "home")
        #expect(sandbox.runProcess("/usr/bin/sqlite3", [sandbox.database, Self.renaming(set: "h", title: "t", to: name.stored)]).code == 0)
        let output = sandbox.run("--json", "select", name.stored, "nosuch")
        #expect(output.code == 1)
        let message = "no tab titled \"nosuch\" in set \"\(name.stored)\""
        Self.expectBytes(output.stderr, JSONOutput.error(code: 1, message: message).line)
        #expect(!output.stderr.contains(#"\u{"#))
        let raw = output.stderr.unicodeScalars.filter { scalar in
            scalar != "\n" && [.control, .format, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory)
        }
        #expect(raw.isEmpty, "\(output.stderr.debugDescription)")
        #expect(try JSONValue.parse(output.stderr.utf8.dropLast())["error"]?["message"] == .string(message))
    }
}
