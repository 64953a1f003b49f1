import Foundation
import Testing

/// `watch` runs as its own process; the changes come from other `tabstore` processes,
/// so every line a watcher prints crossed processes through the database file.
@Suite struct WatchCommandTests {
    /// The ISO 8601 UTC time `history` and `watch` print.
    static var time: Regex<Substring> { #/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/# }

    /// `line` with its time replaced by `TIME`, after checking there is exactly one.
    static func masked(_ line: String) -> String {
        #expect(line.matches(of: time).count == 1, "no single time in \(line)")
        return line.replacing(time, with: "TIME")
    }

    /// Starts a watcher and waits for its notice: from then on it hears every change.
    private func startWatching(_ sandbox: Sandbox, _ arguments: String..., notice: String) throws -> RunningTabstore {
        let watcher = try RunningTabstore(sandbox, ["watch"] + arguments)
        #expect(watcher.wait { $0.stderr == notice }, "no notice; stderr: \(watcher.stderr)")
        return watcher
    }

    @Test func printsChangesOfOtherProcessesUntilSIGINT() throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "All menu", "Reviews")
        sandbox.add("other", "Elsewhere")
        let watcher = try startWatching(sandbox, "main", notice: "watching main (Ctrl-C to stop)\n")
        for arguments in [
            ["select", "main", "Reviews"], ["move", "main", "Reviews", "0"], ["rename", "main", "Home", "Start"],
            ["add", "other", "Unwatched"], ["remove", "main", "Reviews"], ["reopen", "main"],
            ["select", "main", "0"],  // a reselection writes nothing: no line
            ["rename-set", "main", "renamed"], ["add", "renamed", "Map", "--at", "1"],
        ] {
            #expect(sandbox.runWithoutDatabase(["--db", sandbox.database] + arguments).code == 0)
        }
        #expect(watcher.wait { $0.stdoutLines.count >= 7 }, "got: \(watcher.stdout)")
        watcher.send(SIGINT)
        let exit = watcher.exit()
        #expect(exit?.status == 0 && exit?.bySignal == false)
        #expect(watcher.stdoutLines.map(Self.masked) == [
            "2  TIME  selected 2: Reviews (was 0: Home)",
            "3  TIME  moved Reviews from 2 to 0",
            "4  TIME  renamed 1: Home -> Start",
            "5  TIME  removed 0: Reviews (selected)",
            "6  TIME  reopened 0: Reviews (selected)",
            "7  TIME  renamed set main -> renamed",
            "8  TIME  added 1 tab at 1: Map",
        ])
        #expect(watcher.stdout.hasSuffix("\n"))
        #expect(watcher.stderr == "watching main (Ctrl-C to stop)\n")
    }

    /// libdispatch, told to log to standard error, has nothing to say of how a watcher uses
    /// it (a source resumed with no handler is a misuse it logs, to syslog by default).
    @Test func libdispatchLogsNoMisuseOfAWatcher() throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Map")
        let watcher = try RunningTabstore(sandbox, ["watch", "main"], environment: ["LIBDISPATCH_LOG": "stderr"])
        #expect(watcher.wait { $0.stderr.contains("watching main") }, "stderr: \(watcher.stderr)")
        _ = sandbox.run("select", "main", "Map")
        #expect(watcher.wait { $0.stdoutLines.count >= 1 })
        watcher.send(SIGINT)
        #expect(watcher.exit()?.status == 0)
        #expect(watcher.stderr == "watching main (Ctrl-C to stop)\n")
    }

    @Test func linesMatchHistory() throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Map")
        let watcher = try startWatching(sandbox, "main", notice: "watching main (Ctrl-C to stop)\n")
        _ = sandbox.run("select", "main", "Map")
        _ = sandbox.run("remove", "main", "Home")
        #expect(watcher.wait { $0.stdoutLines.count >= 2 })
        watcher.send(SIGINT)
        #expect(watcher.exit()?.status == 0)
        // The same text, times included: history is newest first.
        #expect(watcher.stdoutLines == sandbox.run("history", "main", "--limit", "2").stdout.split(separator: "\n").reversed().map(String.init))
    }

    @Test func jsonPrintsOneObjectPerChange() throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews")
        let watcher = try startWatching(sandbox, "main", "--json", notice: #"{"watching":"main"}"# + "\n")
        _ = sandbox.run("select", "main", "1")
        _ = sandbox.run("rename", "main", "0", "Start")
        _ = sandbox.run("remove-set", "main")
        #expect(watcher.wait { $0.stdoutLines.count >= 3 })
        watcher.send(SIGINT)
        #expect(watcher.exit()?.status == 0)
        #expect(watcher.stdoutLines.map(Self.masked) == [
            #"{"set":"main","revision":2,"time":"TIME","kind":"selected","event":{"updates":[{"index":0,"title":"Home","selected":false},{"index":1,"title":"Reviews","selected":true}]}}"#,
            #"{"set":"main","revision":3,"time":"TIME","kind":"renamed","event":{"index":0,"from":"Home","to":"Start"}}"#,
            #"{"set":"main","revision":4,"time":"TIME","kind":"set-removed","event":{}}"#,
        ])
    }

    @Test func withoutASetWatchesEverySetUntilSIGTERM() throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        let watcher = try startWatching(sandbox, notice: "watching all sets (Ctrl-C to stop)\n")
        sandbox.add("블로그", "홈", "리뷰")
        _ = sandbox.run("select", "블로그", "리뷰")
        _ = sandbox.run("move", "main", "0", "0")  // no change: no line
        sandbox.add("main", "Map")
        #expect(watcher.wait { $0.stdoutLines.count >= 3 })
        watcher.send(SIGTERM)
        let exit = watcher.exit()
        #expect(exit?.status == 0 && exit?.bySignal == false)
        #expect(watcher.stdoutLines.map(Self.masked) == [
            "블로그  1  TIME  added 2 tabs at 0: 홈, 리뷰",
            "블로그  2  TIME  selected 1: 리뷰 (was 0: 홈)",
            "main  2  TIME  added 1 tab at 1: Map",
        ])
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalWithNoChangesStillExitsZero(signal: Int32) throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        let watcher = try startWatching(sandbox, "main", notice: "watching main (Ctrl-C to stop)\n")
        watcher.send(signal)
        let exit = watcher.exit()
        #expect(exit?.status == 0 && exit?.bySignal == false)
        #expect(watcher.stdout == "")
    }

    /// The watch closes the file as it ends: being the last process to have it open, it
    /// leaves the file alone in its folder, holding the change made while it watched.
    @Test(arguments: [SIGINT, SIGTERM])
    func aWatchEndedByASignalLeavesNoWalOrShmBehind(signal: Int32) throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Map")
        let watcher = try startWatching(sandbox, "main", notice: "watching main (Ctrl-C to stop)\n")
        #expect(sandbox.run("select", "main", "Map").code == 0)
        #expect(watcher.wait { $0.stdoutLines.count == 1 }, "got: \(watcher.stdout)")
        let (folder, name) = (sandbox.folder, "tabs.sqlite")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(name) }.sorted()
            == [name, name + "-shm", name + "-wal"])
        watcher.send(signal)
        #expect(watcher.exit()?.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(name) } == [name])
        #expect(sandbox.run("restore", "main").stdout == "1\n")
    }

    @Test func aSignalDuringABurstNeverCutsALine() throws {
        let sandbox = Sandbox()
        sandbox.add("main", "A", "B")
        let watcher = try startWatching(sandbox, "main", "--json", notice: #"{"watching":"main"}"# + "\n")
        for index in 0..<6 { _ = sandbox.run("select", "main", String(index % 2 == 0 ? 1 : 0)) }
        _ = watcher.wait { $0.stdoutLines.count >= 1 }
        watcher.send(SIGINT)
        #expect(watcher.exit()?.status == 0)
        #expect(watcher.stdout.isEmpty || watcher.stdout.hasSuffix("}\n"))
        #expect(watcher.stdoutLines.allSatisfy { $0.hasPrefix(#"{"set":"main","revision":"#) && $0.hasSuffix("}}") })
    }

    @Test func anUnknownSetIsAnError() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        #expect(sandbox.run("watch", "nope") == .failure(1, "tabstore: error: no tab set named \"nope\"\n"))
        #expect(sandbox.run("watch", "nope", "--json") == .failure(1,
            #"{"error":{"code":1,"message":"no tab set named \"nope\""}}"# + "\n"))
    }
}
