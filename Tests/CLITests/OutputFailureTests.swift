import Foundation
import Testing
import TabStoreTestSupport

/// Output that cannot be written is an error (exit 4, one line on stderr),
/// whatever the command; a reader that went away (`| head -1`) is not.
/// Runs `tabstore --db DB ARGUMENTS... REDIRECTION` through bash.
private func run(_ sandbox: Sandbox, _ arguments: [String], redirection: String) -> Output {
    let script = #"exec "$0" --db "$1" "${@:2}" "# + redirection
    return sandbox.runProcess("/bin/bash", ["-c", script, TabstoreBinary.path, sandbox.database] + arguments)
}

@Suite struct OutputFailureTests {
    @Test(arguments: [["list"], ["restore", "main"], ["show", "main"], ["export"], ["history", "main"], ["--json", "list"]])
    func readCommandsToAFullDeviceFail(arguments: [String]) {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews")
        let message = "cannot write output: No space left on device"
        let expected = arguments.first == "--json"
            ? #"{"error":{"code":4,"message":"\#(message)"}}"# + "\n"
            : "tabstore: error: \(message)\n"
        #expect(run(sandbox, arguments, redirection: "> /dev/full") == .failure(4, expected))
    }

    @Test func aSavedChangeWhoseOutputIsLostSaysItWasSaved() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews")
        #expect(run(sandbox, ["select", "main", "1"], redirection: "> /dev/full") == .failure(4,
            "tabstore: error: cannot write output: No space left on device (the change itself was saved)\n"))
        #expect(sandbox.list("main") == "  0  Home\n* 1  Reviews\n")
    }

    @Test(arguments: [["list"], ["restore", "main"], ["select", "main", "1"]])
    func closedStandardOutputFails(arguments: [String]) {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews")
        let saved = arguments[0] == "select" ? " (the change itself was saved)" : ""
        #expect(run(sandbox, arguments, redirection: ">&-") == .failure(4,
            "tabstore: error: cannot write output: Bad file descriptor\(saved)\n"))
    }

    /// Exit 0 whatever the output's size: the output here is far larger than a pipe's
    /// buffer, so the run is still writing when the reader has gone (SIGPIPE at its
    /// default killed it: 141, a failure under `set -o pipefail`).
    @Test(arguments: [["export"], ["list", "main"], ["--json", "list", "main"], ["show", "main"], ["--json", "export"]])
    func aReaderThatLeavesEarlyIsNotAnError(arguments: [String]) {
        let sandbox = Sandbox()
        sandbox.add("main", Array(0..<3000).map { "tab \($0) " + String(repeating: "x", count: 40) })
        // `true` reads nothing and exits: the run meets a closed pipe.
        let script = #""$0" --db "$1" "${@:2}" | true; echo "${PIPESTATUS[0]}""#
        let output = sandbox.runProcess("/bin/bash", ["-c", script, TabstoreBinary.path, sandbox.database] + arguments)
        #expect(output.stderr == "")
        #expect(output.stdout == "0\n")
    }

    /// A standard output the parent made non-blocking refuses writes (EAGAIN) while its
    /// reader is behind: the run waits for the reader and writes everything, exit 0.
    @Test(arguments: [["export"], ["list", "main"]])
    func aNonBlockingStandardOutputIsWrittenWholeWhenItsReaderIsSlow(arguments: [String]) {
        let sandbox = Sandbox()
        sandbox.add("main", Array(0..<3000).map { "tab \($0) " + String(repeating: "x", count: 40) })
        let expected = sandbox.runProcess(TabstoreBinary.path, ["--db", sandbox.database] + arguments)
        #expect(expected.code == 0 && expected.stdout.utf8.count > 1 << 17)
        // Reads only once the pipe is full, so the run has met EAGAIN, then reads to the end.
        let script = """
        import fcntl, os, subprocess, sys, termios, array
        r, w = os.pipe()
        fcntl.fcntl(w, fcntl.F_SETFL, fcntl.fcntl(w, fcntl.F_GETFL) | os.O_NONBLOCK)
        run = subprocess.Popen(sys.argv[1:], stdout=w)
        os.close(w)
        capacity = fcntl.fcntl(r, 1032)  # F_GETPIPE_SZ
        waiting = array.array("i", [0])
        while run.poll() is None:
            fcntl.ioctl(r, termios.FIONREAD, waiting)
            if waiting[0] >= capacity: break
        data = b""
        while chunk := os.read(r, 65536): data += chunk
        sys.stdout.buffer.write(data)
        sys.stderr.write("exit %d, full pipe %s\\n" % (run.wait(), waiting[0] >= capacity))
        """
        let output = sandbox.runProcess("/usr/bin/python3", ["-c", script, TabstoreBinary.path, "--db", sandbox.database] + arguments)
        #expect(output.stderr == "exit 0, full pipe True\n")
        #expect(output.stdout == expected.stdout)
    }

    /// A watch whose reader has gone ends, with exit 0, at the next line it cannot write.
    @Test func aWatchWhoseReaderLeftEndsWithExitZero() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Map")
        let script = #"""
            ( "$0" --db "$1" watch main 2>"$2/notice" | head -1 >"$2/line"; echo "${PIPESTATUS[0]}" >"$2/status" ) &
            for _ in $(seq 1200); do [ -s "$2/notice" ] && break; sleep 0.05; done
            [ -s "$2/notice" ] || { echo "the watch said nothing within 60 s"; exit 1; }
            for i in $(seq 1 200); do
                [ -s "$2/status" ] && break
                "$0" --db "$1" select main $((i % 2)) >/dev/null
                sleep 0.05
            done
            wait
            cat "$2/status" "$2/line"
            """#
        let output = sandbox.runProcess("/bin/bash", ["-c", script, TabstoreBinary.path, sandbox.database, sandbox.folder])
        #expect(output.stdout.split(separator: "\n").first == "0")
        #expect(output.stdout.hasSuffix("selected 1: Map (was 0: Home)\n"))
    }

    /// A watch whose line cannot be written ends with exit 4 and one line, having closed
    /// its store: as the last process with the file open, it leaves no -wal or -shm.
    /// The watch is stopped while the select runs, so the select has exited (leaving the
    /// -wal, as the watch still had the file open) before the watch acts: two closes at
    /// the same moment could each see the other and both keep the -wal.
    @Test func aWatchThatCannotWriteEndsWithExitFourAndClosesItsStore() throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Map")
        let script = #"""
            "$0" --db "$1" watch main >/dev/full 2>"$2/stderr" &
            watch=$!
            for _ in $(seq 1200); do [ -s "$2/stderr" ] && break; sleep 0.05; done
            [ -s "$2/stderr" ] || { echo "the watch said nothing within 60 s"; kill "$watch"; exit 1; }
            kill -STOP "$watch"
            "$0" --db "$1" select main 1 >/dev/null
            [ -e "$1-wal" ] && echo "wal kept by the select"
            kill -CONT "$watch"
            wait "$watch"
            echo "$?"
            """#
        let output = sandbox.runProcess("/bin/bash", ["-c", script, TabstoreBinary.path, sandbox.database, sandbox.folder])
        #expect(output.stdout == "wal kept by the select\n4\n")
        let stderr = try String(contentsOfFile: sandbox.folder + "/stderr", encoding: .utf8)
        #expect(stderr.hasSuffix("\ntabstore: error: cannot write output: No space left on device\n"))
        let sideFiles = try FileManager.default.contentsOfDirectory(atPath: sandbox.folder).filter { $0.hasSuffix("-wal") || $0.hasSuffix("-shm") }
        #expect(sideFiles == [])
    }

    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount a tmpfs (root in CI)"))
    func exportToAFileOnAFullDiskFails() throws {
        let sandbox = Sandbox()
        sandbox.add("main", Array(0..<3000).map { "tab \($0) " + String(repeating: "x", count: 40) })
        let mount = try #require(TemporaryMount.tmpfs(kilobytes: 64))
        let file = mount.path + "/export.json"
        #expect(run(sandbox, ["export"], redirection: "> '\(file)'") == .failure(4,
            "tabstore: error: cannot write output: No space left on device\n"))
    }
}

/// "(the change itself was saved)" is said exactly when the command changed the database:
/// a random mix of edits and edits that find nothing to do, each with its output lost,
/// checked against whether the stored state (export and history) moved.
@Suite struct SavedChangeMessageTests {
    /// Everything a change can move: the tabs and selections, and the journal.
    private func state(_ sandbox: Sandbox) -> String {
        sandbox.run("export").stdout + sandbox.run("history", "s").stdout
    }

    @Test(arguments: [1, 2, 3])
    func theSuffixIsSaidExactlyWhenTheDatabaseChanged(seed: UInt64) throws {
        let sandbox = Sandbox()
        sandbox.add("s", "A", "B", "C")
        let document = sandbox.folder + "/s.json"
        var generator = SplitMix64(seed: seed)
        let commands: [[String]] = [
            ["select", "s", "A"], ["select", "s", "B"], ["select", "s", "--index", "0"],
            ["rename", "s", "A", "A"], ["rename", "s", "C", "D"], ["rename", "s", "D", "C"],
            ["move", "s", "A", "0"], ["move", "s", "A", "2"], ["add", "s"], ["add", "s", "E"],
            ["remove", "s", "E"], ["reopen", "s"], ["import", document, "--replace"],
            ["export", "s", "--output", document, "--force"],
        ]
        var saidSaved = 0
        var saidNotSaved = 0
        for _ in 0..<30 {
            let command = commands[Int(generator.next() % UInt64(commands.count))]
            let before = state(sandbox)
            let output = run(sandbox, command, redirection: "> /dev/full")
            let changed = state(sandbox) != before || (command[0] == "export" && output.code == 4)
            let suffix = output.stderr.hasSuffix(" (the change itself was saved)\n")
            if output.code == 4 {
                #expect(suffix == changed, "\(command): \(output.stderr)")
                if suffix { saidSaved += 1 } else { saidNotSaved += 1 }
            } else {
                #expect(!changed, "\(command) failed (\(output.stderr)) yet changed the database")
            }
        }
        #expect(saidSaved > 0 && saidNotSaved > 0)
    }
}
