import Foundation
import Testing

/// Completion in real interactive bash, zsh and fish sessions on a pseudo-terminal: the
/// completion script as a user installs it, Tab pressed by a driver, and the completed
/// line run by the shell. What the command then prints (to a file, away from the
/// terminal's echo) shows what the shell read back: a title with spaces, quotes, `$`,
/// `!` or a backslash must reach tabstore exactly, and an opening quote must be closed.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs python3 to drive a pseudo-terminal"))
struct InteractiveCompletionTests {
    /// The titles of set `s`, at these indices.
    static let titles = ["cost $5", "wow!", #"back\slash"#, "x:y", #"it's "q""#, "my set", "`tick`", "iOS 앱 개발 알아가기"]

    /// One line: typed up to the Tab, completed, then `rest` typed and the line run.
    struct Case: Sendable, CustomStringConvertible {
        let typed: String
        let rest: String
        let expected: String
        var description: String { typed }
    }

    /// `select s TAB`: its output names the title exactly as the shell passed it (whether
    /// the tab was `already selected` is left out).
    static func title(_ typed: String, _ index: Int) -> Case {
        Case(typed: "tabstore select s \(typed)", rest: "", expected: "selected \(index): \(titles[index])\n")
    }

    static let cases: [Case] = [
        // After an opening quote bash inserted backslashes ('my\ set') and left
        // a quote open ('it\'s\ \"q\"').
        title("'my", 5), title("\"my", 5), title("my", 5),
        title("'it", 4), title("\"it", 4), title("it", 4),
        title("'cost", 0), title("\"cost", 0), title("cost", 0),
        title("'wow", 1), title("\"wow", 1), title("wow", 1),
        title("'back", 2), title("\"back", 2), title("back", 2),
        title("'x:", 3), title("x:", 3),
        title("'`t", 6), title("`t".replacingOccurrences(of: "`", with: "\\`"), 6),
        title("'iOS", 7), title("iOS", 7),
        title("m'y", 5),
        Case(typed: "tabstore list 'work:", rest: "", expected: "* 0  a\n"),
        Case(typed: "tabstore list work:", rest: "", expected: "* 0  a\n"),
        Case(typed: "tabstore list '메인", rest: "", expected: "* 0  b\n"),
        Case(typed: "tabstore list 메인", rest: "", expected: "* 0  b\n"),
        Case(typed: "tabstore select s --title='it", rest: "", expected: "selected 4: \(titles[4])\n"),
    ]

    /// The session's set-up, per shell: the completion script loaded as its instructions say.
    static let shells: [(name: String, arguments: [String], setUp: String)] = [
        ("bash", ["--norc", "--noprofile", "-i"],
         "[ -r /usr/share/bash-completion/bash_completion ] && . /usr/share/bash-completion/bash_completion; source <(tabstore completions bash)"),
        ("zsh", ["-f", "-i"], "autoload -U compinit; compinit -u -D; source <(tabstore completions zsh)"),
        ("fish", ["--no-config", "-i"], "tabstore completions fish | source"),
    ]

    @Test func bashCompletedLinesReachTabstoreExactly() throws {
        try completedLinesReachTabstoreExactly(shell: "bash")
    }

    @Test(.enabled(if: CompletionTests.runs("zsh"), CompletionTests.notInstalled("zsh")))
    func zshCompletedLinesReachTabstoreExactly() throws {
        try completedLinesReachTabstoreExactly(shell: "zsh")
    }

    @Test(.enabled(if: CompletionTests.runs("fish"), CompletionTests.notInstalled("fish")))
    func fishCompletedLinesReachTabstoreExactly() throws {
        try completedLinesReachTabstoreExactly(shell: "fish")
    }

    func completedLinesReachTabstoreExactly(shell: String) throws {
        let (_, arguments, setUp) = try #require(Self.shells.first { $0.name == shell })
        try #require(CompletionTests.installed(shell), "TABSTORE_REQUIRE_SHELLS=1, but \(shell) is not installed")
        let sandbox = Sandbox()
        sandbox.add("s", Self.titles)
        sandbox.add("work:one", "a")
        sandbox.add("메인 창", "b")
        var cases = Self.cases
        // `--db=PA`: the path after `=` is completed as a file.
        cases.append(Case(typed: "tabstore --db=\(sandbox.folder)/tabs.sq", rest: " list work:one", expected: "* 0  a\n"))

        let results = try PseudoTerminal.complete(
            shell: "/usr/bin/" + shell, arguments: arguments, setUp: setUp,
            lines: cases.map { ($0.typed, $0.rest) }, folder: sandbox.folder,
            environment: ["PATH": CompletionTests.binaryFolder + ":/usr/bin:/bin", "TABSTORE_DB": sandbox.database,
                          "HOME": sandbox.folder, "LANG": "C.UTF-8", "TERM": "dumb"]
        )
        for (index, line) in cases.enumerated() {
            let result = results[index].map { $0.hasPrefix("already ") ? String($0.dropFirst("already ".count)) : $0 }
            #expect(result == line.expected, "\(shell): \(line.typed)⇥")
        }
    }
}

/// Drives an interactive shell on a pseudo-terminal with python3's pty module.
enum PseudoTerminal {
    /// For each line: types `typed`, presses Tab, waits for the shell to settle, types
    /// `rest`, and runs the line with its output sent to a file. Returns each file's
    /// contents, `nil` where the line never ran (a quote left open: the shell waited
    /// for more, and got Ctrl-C).
    static func complete(
        shell: String, arguments: [String], setUp: String, lines: [(typed: String, rest: String)],
        folder: String, environment: [String: String]
    ) throws -> [String?] {
        let spec: [String: Any] = [
            "argv": [shell] + arguments, "env": environment, "setup": setUp, "folder": folder,
            "lines": lines.map { [$0.typed, $0.rest] },
        ]
        let specPath = folder + "/pty-spec.json"
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: specPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", driver, specPath]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let decoded = try JSONSerialization.jsonObject(with: data) as? [Any]
        return try #require(decoded, "the driver printed \(String(decoding: data, as: UTF8.self))").map { $0 as? String }
    }

    static let driver = #"""
    import json, os, pty, select, signal, sys, time
    spec = json.load(open(sys.argv[1]))
    folder = spec["folder"]
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(spec["argv"][0], spec["argv"], spec["env"])

    def drain(quiet, limit):
        # Reads what the shell prints until it has been quiet for `quiet` seconds.
        end = time.time() + limit
        last = time.time()
        while time.time() < end and time.time() - last < quiet:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    if os.read(fd, 65536):
                        last = time.time()
                except OSError:
                    return

    def wait_for(path, limit):
        end = time.time() + limit
        while time.time() < end:
            drain(0.05, 0.1)
            if os.path.exists(path):
                return True
        return False

    def run_line(text, marker, limit=20):
        os.write(fd, (text + " ; echo >" + marker + "\n").encode())
        return wait_for(marker, limit)

    drain(1.0, 10)
    if not run_line(spec["setup"], os.path.join(folder, "pty-ready")):
        print(json.dumps({"error": "the set-up did not finish"}))
        sys.exit(1)
    results = []
    for index, (typed, rest) in enumerate(spec["lines"]):
        out = os.path.join(folder, "pty-out-%d" % index)
        os.write(fd, typed.encode())
        drain(0.1, 5)
        os.write(fd, b"\t")
        drain(0.3, 10)
        if run_line(rest + " >" + out + " 2>&1", out + ".done"):
            results.append(open(out, encoding="utf-8", errors="replace").read())
        else:
            os.write(fd, b"\x03")
            drain(0.5, 5)
            results.append(None)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    print(json.dumps(results))
    """#
}
