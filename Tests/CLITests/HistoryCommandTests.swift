import Foundation
import Testing

@Suite struct HistoryCommandTests {
    /// Every kind of journaled change, by separate processes.
    private func scripted() -> Sandbox {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "All menu", "Reviews")
        for arguments in [
            ["select", "main", "Reviews"], ["move", "main", "Reviews", "0"], ["rename", "main", "Home", "Start"],
            ["remove", "main", "Reviews"], ["reopen", "main"], ["remove", "main", "0", "2"],
            ["add", "main", "Map", "Q&A", "--at", "0"],
        ] {
            #expect(sandbox.runWithoutDatabase(["--db", sandbox.database] + arguments).code == 0)
        }
        let document = #"{"format":"tabstore","version":1,"sets":[{"name":"main","selectedIndex":1,"tabs":["A","B","C"]}]}"#
        #expect(sandbox.run("import", "-", "--replace", stdin: document).code == 0)
        return sandbox
    }

    @Test func listsEveryKindNewestFirstWithAlignedRevisions() {
        let sandbox = scripted()
        _ = sandbox.run("select", "main", "C")
        _ = sandbox.run("select", "main", "A")
        let output = sandbox.run("history", "main", "--limit", "11")
        #expect(output.code == 0 && output.stderr == "")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.map(WatchCommandTests.masked) == [
            "11  TIME  selected 0: A (was 2: C)",
            "10  TIME  selected 2: C (was 1: B)",
            " 9  TIME  replaced all tabs (3 tabs)",
            " 8  TIME  added 2 tabs at 0: Map, Q&A",
            " 7  TIME  removed 0: Reviews (selected), 2: All menu",
            " 6  TIME  reopened 0: Reviews (selected)",
            " 5  TIME  removed 0: Reviews (selected)",
            " 4  TIME  renamed 1: Home -> Start",
            " 3  TIME  moved Reviews from 2 to 0",
            " 2  TIME  selected 2: Reviews (was 0: Home)",
            " 1  TIME  added 3 tabs at 0: Home, All menu, Reviews",
        ])
    }

    @Test func jsonHasTheSameTimesAndOneShapePerKind() {
        let sandbox = scripted()
        let output = sandbox.run("history", "main", "--json", "--limit", "5")
        #expect(output.code == 0)
        #expect(output.stdout.replacing(WatchCommandTests.time, with: "T") ==
            #"{"set":"main","changes":["#
            + #"{"revision":9,"time":"T","kind":"replaced","event":{"tabCount":3}},"#
            + #"{"revision":8,"time":"T","kind":"added","event":{"index":0,"titles":["Map","Q&A"]}},"#
            + #"{"revision":7,"time":"T","kind":"removed","event":{"tabs":[{"index":0,"title":"Reviews","selected":true},{"index":2,"title":"All menu","selected":false}]}},"#
            + #"{"revision":6,"time":"T","kind":"reopened","event":{"tab":{"index":0,"title":"Reviews","selected":true}}},"#
            + #"{"revision":5,"time":"T","kind":"removed","event":{"tabs":[{"index":0,"title":"Reviews","selected":true}]}}"#
            + "]}\n")
        // The text shows the very times the JSON gives, in the same order.
        let jsonTimes = output.stdout.matches(of: WatchCommandTests.time).map { String($0.output) }
        let textTimes = sandbox.run("history", "main", "--limit", "5").stdout.matches(of: WatchCommandTests.time).map { String($0.output) }
        #expect(jsonTimes.count == 5 && textTimes == jsonTimes)
        #expect(jsonTimes == jsonTimes.sorted().reversed())
    }

    @Test func timesAreTheCurrentUTCTime() throws {
        let sandbox = Sandbox()
        let before = Date()
        sandbox.add("main", "Home")
        let after = Date()
        let line = sandbox.run("history", "main").stdout
        let text = try #require(line.firstMatch(of: WatchCommandTests.time)).output
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let time = try #require(formatter.date(from: String(text)))
        // SQLite's clock and this one, a millisecond of rounding apart at most.
        #expect(time.timeIntervalSince(before) > -0.002 && after.timeIntervalSince(time) > -0.002)
    }

    @Test func limitKeepsTheNewest() {
        let sandbox = scripted()
        let lines = sandbox.run("history", "main", "--limit", "2").stdout.split(separator: "\n").map(String.init)
        #expect(lines.map(WatchCommandTests.masked) == [
            "9  TIME  replaced all tabs (3 tabs)",
            "8  TIME  added 2 tabs at 0: Map, Q&A",
        ])
    }

    /// The old name keeps what happened under it, up to the rename; the new one, after the
    /// set is removed, what happened under it and the rename that brought the set there.
    @Test func setRenamesAndRemovalsAreKeptUnderTheOldName() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        _ = sandbox.run("rename-set", "main", "other")
        _ = sandbox.run("add", "other", "Map")
        _ = sandbox.run("remove-set", "other")
        #expect(sandbox.run("history", "main").stdout.split(separator: "\n").map { WatchCommandTests.masked(String($0)) } == [
            "2  TIME  renamed set main -> other",
            "1  TIME  added 1 tab at 0: Home",
        ])
        #expect(sandbox.run("history", "other").stdout.split(separator: "\n").map { WatchCommandTests.masked(String($0)) } == [
            "4  TIME  removed set",
            "3  TIME  added 1 tab at 1: Map",
            "2  TIME  renamed set main -> other",
        ])
    }

    @Test func anEmptySetIsCreatedByAnEmptyAdd() {
        let sandbox = Sandbox()
        sandbox.add("empty")
        #expect(WatchCommandTests.masked(sandbox.run("history", "empty").stdout) == "1  TIME  created the set (no tabs)\n")
    }

    @Test func anUnknownSetIsAnError() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        #expect(sandbox.run("history", "nope") == .failure(1, "tabstore: error: no tab set named \"nope\"\n"))
    }

    /// The limit is stated.
    @Test(arguments: [("0", ": the minimum is 1"), ("-1", ": the minimum is 1"), ("x", ": it is not an integer"), ("1.5", ": it is not an integer")])
    func limitMustBePositive(limit: String, minimum: String) {
        let sandbox = Sandbox()
        #expect(sandbox.run("history", "main", "--limit", limit) == .failure(2, """
            tabstore: error: The value '\(limit)' is invalid for '--limit <count>'\(minimum) (see 'tabstore help history')

            """))
        #expect(!sandbox.exists(sandbox.database))
    }

    @Test func aRecreatedSetsHistoryIsStrictlyNewestFirst() {
        let sandbox = Sandbox()
        sandbox.add("s", "Mail", "Calendar")
        _ = sandbox.run("remove-set", "s")
        sandbox.add("s", "Bank")
        #expect(sandbox.run("history", "s").stdout.split(separator: "\n").map { WatchCommandTests.masked(String($0)) } == [
            "3  TIME  added 1 tab at 0: Bank",
            "2  TIME  removed set",
            "1  TIME  added 2 tabs at 0: Mail, Calendar",
        ])
    }

    @Test func aRenamedSetKeepsItsEarlierChanges() {
        let sandbox = Sandbox()
        sandbox.add("a", "Home", "Map")
        _ = sandbox.run("select", "a", "Map")
        _ = sandbox.run("rename-set", "a", "b")
        #expect(sandbox.run("history", "b").stdout.split(separator: "\n").map { WatchCommandTests.masked(String($0)) } == [
            "3  TIME  renamed set a -> b",
            "2  TIME  selected 1: Map (was 0: Home)",
            "1  TIME  added 2 tabs at 0: Home, Map",
        ])
    }
}
