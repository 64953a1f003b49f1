import Foundation
import Testing

/// `tabstore completions SHELL`: the scripts, driven by the shells themselves.
@Suite struct CompletionTests {
    static let binaryFolder = (TabstoreBinary.path as NSString).deletingLastPathComponent
    static let korean = "iOS 앱 개발 알아가기"
    static let quoted = #"it's "q""#

    static func installed(_ shell: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/\(shell)")
    }

    /// zsh and fish are optional for a contributor (the README's setup does not install
    /// them); CI sets TABSTORE_REQUIRE_SHELLS=1, and then a test of a missing shell runs and fails.
    static let shellsRequired = ProcessInfo.processInfo.environment["TABSTORE_REQUIRE_SHELLS"] == "1"

    static func runs(_ shell: String) -> Bool { installed(shell) || shellsRequired }

    static func notInstalled(_ shell: String) -> Comment {
        Comment(rawValue: "\(shell) is not installed (apt-get install \(shell)); set TABSTORE_REQUIRE_SHELLS=1 to fail instead")
    }

    /// A sandbox with sets `main` (three tabs, one Korean with spaces, one with quotes),
    /// `work:one` and `메인 창`.
    static func sandboxWithSets() -> Sandbox {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", korean, quoted)
        sandbox.add("work:one", "a")
        sandbox.add("메인 창", "b")
        return sandbox
    }

    /// Sources the bash script in a child bash, sets `COMP_WORDS` (as bash splits them) and
    /// `COMP_LINE` as if Tab were pressed at the end of the line, calls the function that
    /// `complete -p` names, and prints `COMPREPLY` one per line.
    static func bashCompletions(_ sandbox: Sandbox, line: String, words: [String], environment: [String: String] = [:]) -> Output {
        let driver = """
            source <(tabstore completions bash) || exit 9
            function=$(complete -p tabstore | sed -E 's/.* -F ([^ ]+) .*/\\1/')
            COMP_LINE=$1; COMP_POINT=${#1}; shift
            COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            "$function" tabstore "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        return sandbox.runProcess("/bin/bash", ["-c", driver, "bash", line] + words,
                                  environment: ["PATH": binaryFolder + ":/usr/bin:/bin"].merging(environment) { $1 })
    }

    @Test func bashCompletesACommand() {
        let sandbox = Sandbox()
        let output = Self.bashCompletions(sandbox, line: "tabstore sel", words: ["tabstore", "sel"])
        #expect(output == .ok("select\n"))
        #expect(Self.bashCompletions(sandbox, line: "tabstore re", words: ["tabstore", "re"])
            == .ok("restore\nremove\nrename\nreopen\nrename-set\nremove-set\n"))
    }

    @Test func bashCompletesTheOptionsOfTheCommandAndTheGlobalOnes() {
        let sandbox = Sandbox()
        #expect(Self.bashCompletions(sandbox, line: "tabstore add main --", words: ["tabstore", "add", "main", "--"])
            == .ok("--at\n--if-revision\n--db\n--json\n--escaped\n--version\n--help\n"))
        #expect(Self.bashCompletions(sandbox, line: "tabstore list --j", words: ["tabstore", "list", "--j"]) == .ok("--json\n"))
    }

    @Test func bashCompletesSetNamesFromTheDatabaseTheLineNames() {
        let sandbox = Self.sandboxWithSets()
        // --db on the line being completed; a Korean name with a space comes back quoted.
        let line = "tabstore --db \(sandbox.database) remove-set "
        #expect(Self.bashCompletions(sandbox, line: line, words: ["tabstore", "--db", sandbox.database, "remove-set", ""])
            == .ok("main\nwork:one\n메인\\ 창\n"))
        // TABSTORE_DB when the line names none.
        #expect(Self.bashCompletions(sandbox, line: "tabstore list m", words: ["tabstore", "list", "m"], environment: ["TABSTORE_DB": sandbox.database])
            == .ok("main\n"))
        // Bash splits `work:o` at ':' and replaces only what follows it.
        #expect(Self.bashCompletions(sandbox, line: "tabstore list work:o", words: ["tabstore", "list", "work", ":", "o"], environment: ["TABSTORE_DB": sandbox.database])
            == .ok("one\n"))
        // --db=PATH is split at '=' the same way.
        #expect(Self.bashCompletions(sandbox, line: "tabstore --db=\(sandbox.database) list w", words: ["tabstore", "--db", "=", sandbox.database, "list", "w"])
            == .ok("work:one\n"))
    }

    @Test func bashCompletesAKoreanTitleWithSpacesQuotedSoTheShellReadsItBack() {
        let sandbox = Self.sandboxWithSets()
        let environment = ["TABSTORE_DB": sandbox.database]
        let expected = #"iOS\ 앱\ 개발\ 알아가기"#
        #expect(Self.bashCompletions(sandbox, line: "tabstore select main iOS", words: ["tabstore", "select", "main", "iOS"], environment: environment) == .ok(expected + "\n"))
        // Typed with a backslash, the word is read as the shell would.
        #expect(Self.bashCompletions(sandbox, line: #"tabstore select main iOS\ 앱"#, words: ["tabstore", "select", "main", #"iOS\ 앱"#], environment: environment) == .ok(expected + "\n"))
        // Inside an open quote bash replaces what follows the quote: the rest of the title
        // as it reads inside that quote, and the closing quote (InteractiveCompletionTests
        // presses Tab in real shells).
        #expect(Self.bashCompletions(sandbox, line: #"tabstore select main "iOS 앱"#, words: ["tabstore", "select", "main", #""iOS 앱"#], environment: environment) == .ok(Self.korean + "\"\n"))
        // The title with quotes; `--title` takes titles too.
        let quotedReply = Self.bashCompletions(sandbox, line: "tabstore rename main --title it", words: ["tabstore", "rename", "main", "--title", "it"], environment: environment)
        #expect(quotedReply == .ok(#"it\'s\ \"q\""# + "\n"))
        // What was inserted reads back as exactly the titles.
        let readBack = sandbox.runProcess("/bin/bash", ["-c", #"eval "printf '%s\n' $1 $2""#, "bash", expected, #"it\'s\ \"q\""#])
        #expect(readBack == .ok(Self.korean + "\n" + Self.quoted + "\n"))
    }

    @Test func completingNeverCreatesADatabaseAndOffersNothingWithoutOne() {
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["__complete", "bash", "--", "--db", sandbox.database, "select", ""]) == .ok("words\n"))
        #expect(!sandbox.exists(sandbox.database))
    }

    @Test func fileArgumentsAreLeftToTheShell() {
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["__complete", "bash", "--", "import", ""]) == .ok("files\n"))
        #expect(sandbox.runWithoutDatabase(["__complete", "zsh", "--", "--db", ""]) == .ok("files\n"))
    }

    @Test func zshAndFishGetDescriptions() {
        let sandbox = Self.sandboxWithSets()
        #expect(sandbox.run("__complete", "zsh", "--", "--db", sandbox.database, "list", "w") == .ok("words\nwork\\:one:1 tab\n"))
        #expect(sandbox.run("__complete", "fish", "--", "--db", sandbox.database, "list", "m") == .ok("words\nmain\t3 tabs\n"))
    }

    @Test func anUnknownShellIsAUsageError() {
        #expect(Sandbox().runWithoutDatabase(["completions", "csh"]) == .failure(2, """
            tabstore: error: The value 'csh' is invalid for '<shell>': expected bash, zsh or fish (see 'tabstore help completions')

            """))
    }

    @Test(.enabled(if: runs("zsh"), notInstalled("zsh")))
    func theZshScriptPassesZshSyntaxCheck() throws {
        try #require(Self.installed("zsh"), "TABSTORE_REQUIRE_SHELLS=1, but zsh is not installed")
        let sandbox = Sandbox()
        let script = sandbox.write(sandbox.runWithoutDatabase(["completions", "zsh"]).stdout, to: "_tabstore")
        #expect(sandbox.runProcess("/usr/bin/zsh", ["-n", script]) == .ok(""))
    }

    @Test(.enabled(if: runs("fish"), notInstalled("fish")))
    func theFishScriptPassesFishSyntaxCheckAndCompletesAKoreanTitle() throws {
        try #require(Self.installed("fish"), "TABSTORE_REQUIRE_SHELLS=1, but fish is not installed")
        let sandbox = Self.sandboxWithSets()
        let script = sandbox.write(sandbox.runWithoutDatabase(["completions", "fish"]).stdout, to: "tabstore.fish")
        #expect(sandbox.runProcess("/usr/bin/fish", ["-n", script]) == .ok(""))
        let environment = ["PATH": Self.binaryFolder + ":/usr/bin:/bin", "TABSTORE_DB": sandbox.database]
        let completed = sandbox.runProcess("/usr/bin/fish", ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script, "tabstore select main 'iOS 앱"], environment: environment)
        #expect(completed == .ok(Self.korean + "\ttab 1\n"))
    }
}

/// With `--json` every output is one line of JSON, a completion script too.
@Suite struct CompletionScriptJSONTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func withJSONTheScriptIsOneLineNamingItsShell(shell: String) throws {
        let sandbox = Sandbox()
        let plain = sandbox.runWithoutDatabase(["completions", shell])
        let json = sandbox.runWithoutDatabase(["--json", "completions", shell])
        #expect(json.code == 0 && json.stderr == "")
        #expect(json.stdout.split(separator: "\n").count == 1)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: String]
        #expect(object == ["shell": shell, "script": plain.stdout])
    }
}
