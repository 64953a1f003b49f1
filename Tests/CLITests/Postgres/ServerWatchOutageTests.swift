import Foundation
import TabStoreTestSupport
import Testing

/// `watch` on a server that is not there yet, goes away, or shuts it out: it waits for
/// tables to come, tells a person at a terminal when the server is away and back, and
/// ends (exit 3) when the database is dropped or its access revoked.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct ServerWatchOutageTests {
    /// Once: exit 1, "no tabstore tables yet", so a watcher could not start before the first add.
    @Test func aWatchStartedBeforeTheFirstAddWaitsAndPrintsEveryChange() throws {
        let server = try ServerSandbox()
        let one = try RunningTabstore(server.sandbox, ["watch", "s"], database: server.url)
        let all = try RunningTabstore(server.sandbox, ["--json", "watch"], database: server.url)
        #expect(one.wait { $0.stderr == "watching s (Ctrl-C to stop); no tabstore tables yet, waiting for them\n" })
        #expect(all.wait { $0.stderr == #"{"watching":null,"waitingForTables":true}"# + "\n" })
        server.succeed("add", "s", "a")
        server.succeed("add", "t", "x")
        server.succeed("add", "s", "b")
        #expect(one.wait { $0.stdoutLines.count >= 2 })
        #expect(all.wait { $0.stdoutLines.count >= 3 })
        for watch in [one, all] {
            watch.send(SIGINT)
            #expect(watch.exit()?.status == 0)
        }
        #expect(one.stdoutLines.map(maskingTimes) == ["1  TIME  added 1 tab at 0: a", "2  TIME  added 1 tab at 1: b"])
        let masked = all.stdoutLines.map { $0.replacing(/"time":"[^"]*"/, with: #""time":"TIME""#) }
        #expect(masked == [
            #"{"set":"s","revision":1,"time":"TIME","kind":"added","event":{"index":0,"titles":["a"]}}"#,
            #"{"set":"t","revision":1,"time":"TIME","kind":"added","event":{"index":0,"titles":["x"]}}"#,
            #"{"set":"s","revision":2,"time":"TIME","kind":"added","event":{"index":1,"titles":["b"]}}"#,
        ])
    }

    /// Once: waited silently forever.
    @Test func aDroppedDatabaseEndsTheWatchWithExit3() throws {
        let server = try ServerSandbox()
        server.succeed("add", "s", "a")
        let watch = try RunningTabstore(server.sandbox, ["watch", "s"], database: server.url)
        #expect(watch.wait { $0.stderr == "watching s (Ctrl-C to stop)\n" })
        try server.server.psql("postgres", "DROP DATABASE \(server.databaseName) WITH (FORCE)")
        #expect(watch.exit()?.status == 3)
        #expect(watch.stderr == """
            watching s (Ctrl-C to stop)
            tabstore: error: cannot connect to \(server.url): connection to server at "127.0.0.1", port \(server.server.port) failed: FATAL:  database "\(server.databaseName)" does not exist

            """)
    }

    @Test func revokedAccessEndsTheWatchWithExit3NamingThePrivilege() throws {
        let server = try ServerSandbox()
        server.succeed("add", "s", "a")
        let role = "user_" + server.databaseName
        try server.psql("CREATE ROLE \(role) LOGIN; " + ServerMessageTests.readmeGrants.replacing("tab_user", with: role))
        let url = server.server.url(database: server.databaseName, user: role)
        let watch = try RunningTabstore(server.sandbox, ["watch", "s"], database: url)
        #expect(watch.wait { $0.stderr == "watching s (Ctrl-C to stop)\n" })
        try server.psql("REVOKE SELECT ON public.change FROM \(role)")
        // An idle watch asks the server nothing; its next read, on the next change, fails.
        server.succeed("add", "s", "b")
        #expect(watch.exit()?.status == 3)
        #expect(watch.stderr == """
            watching s (Ctrl-C to stop)
            tabstore: error: role "\(role)" lacks the SELECT privilege on table public.change in postgresql://\(role)@127.0.0.1:\(server.server.port)/\(server.databaseName)

            """)
    }

    /// On a terminal: one line when the server goes away, one when it is back; every change
    /// still printed once.
    @Test(.enabled(if: TerminalTests.hasScript, "needs script(1) at /usr/bin/script (bsdutils) for a pseudo-terminal"))
    func aServerAwayIsSaidOnceOnATerminalAndAgainWhenBack() throws {
        let server = try ServerSandbox(ownServer: ())
        server.succeed("add", "s", "a")
        let folder = server.sandbox.folder
        let shell = "echo $$ > \(folder)/watch.pid; exec \(TabstoreBinary.path) --db '\(server.url)' watch s > \(folder)/out.txt"
        let watch = try RunningTabstore(onTerminal: server.sandbox, shell, environment: ["TABSTORE_FAILOVER_WINDOW": "0.2"])
        let shown = { (watch: RunningTabstore) in watch.stdout.replacing("\r\n", with: "\n") }
        #expect(watch.wait { shown($0) == "watching s (Ctrl-C to stop)\n" })
        server.server.stop()
        #expect(watch.wait { shown($0).hasSuffix("; waiting for it to come back\n") })
        // Still away a while later: said once.
        usleep(2_500_000)
        try server.server.restart()
        #expect(watch.wait { shown($0).hasSuffix(" is back\n") })
        server.succeed("add", "s", "b")
        let output = folder + "/out.txt"
        #expect(RunningTabstore.poll { ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("b\n") })
        let pid = try #require(Int32(try String(contentsOfFile: folder + "/watch.pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGINT)
        #expect(watch.exit()?.status == 0)
        let lines = shown(watch).split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.first == "watching s (Ctrl-C to stop)")
        let port = server.server.port
        // Which one depends on where the server's shutdown is when the watch reconnects:
        // refusing, refusing in its protocol, or accepting and then closing.
        let away = [
            "tabstore: cannot connect to \(server.url): connection to server at \"127.0.0.1\", port \(port) failed: Connection refused; waiting for it to come back",
            "tabstore: cannot connect to \(server.url): connection to server at \"127.0.0.1\", port \(port) failed: FATAL:  the database system is shutting down; waiting for it to come back",
            "tabstore: cannot connect to \(server.url): connection to server at \"127.0.0.1\", port \(port) failed: server closed the connection unexpectedly; waiting for it to come back",
            "tabstore: lost the connection to \(server.url); waiting for it to come back",
        ]
        #expect(lines.count > 1 && away.contains(lines[1]), "\(lines)")
        #expect(lines.last == "tabstore: \(server.url) is back")
        #expect(maskingTimes(try String(contentsOfFile: output, encoding: .utf8)) == "2  TIME  added 1 tab at 1: b\n")
    }
}
