import Foundation
import TabStoreTestSupport
import Testing

/// `watch` on a server outlives its connection: a terminated LISTEN backend and a restarted
/// server. Each change is printed once, in order, and the process exits 0 on SIGINT.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct ServerWatchTests {
    static let edits = 30

    /// `history`-style lines of edits 2...N+1 of set `s` (revision 1 is the setup's add).
    static func expectedLines(_ count: Int) -> [String] {
        (0..<count).map { "\($0 + 2)  TIME  added 1 tab at \($0 + 1): e\($0)" }
    }

    @Test func watchSurvivesItsListenBackendBeingTerminated() throws {
        let server = try ServerSandbox()
        server.succeed("add", "s", "start")
        let watch = try RunningTabstore(server.sandbox, ["watch", "s"], database: server.url)
        #expect(watch.wait { $0.stderr == "watching s (Ctrl-C to stop)\n" })
        for edit in 0..<Self.edits {
            if edit == Self.edits / 2 {
                // The listener's connection: the one that holds a watch lock (a session-level
                // share lock on one bigint key).
                let killed = try server.psql("""
                    SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                    WHERE application_name = 'tabstore' AND datname = current_database() AND pid IN (
                        SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND mode = 'ShareLock' AND objsubid = 1 AND granted
                    )
                    """)
                #expect(killed == "1\n")
            }
            server.succeed("add", "s", "e\(edit)")
        }
        try expectEveryEditOnceThenAQuietExit(watch)
    }

    @Test func watchSurvivesAServerRestart() throws {
        let server = try ServerSandbox(ownServer: ())
        server.succeed("add", "s", "start")
        let watch = try RunningTabstore(server.sandbox, ["watch", "s"], database: server.url)
        #expect(watch.wait { $0.stderr == "watching s (Ctrl-C to stop)\n" })
        let port = server.server.port
        for edit in 0..<Self.edits {
            if edit == Self.edits / 2 {
                server.server.stop()
                // While the server is down an edit fails, says why in one line, and changes nothing.
                #expect(server.run("add", "s", "e\(edit)", environment: ["TABSTORE_FAILOVER_WINDOW": "0"]) == .failure(3, """
                    tabstore: error: cannot connect to postgresql://postgres@127.0.0.1:\(port)/db_1: connection to server at "127.0.0.1", port \(port) failed: Connection refused

                    """))
                try server.server.restart()
            }
            server.succeed("add", "s", "e\(edit)")
        }
        try expectEveryEditOnceThenAQuietExit(watch)
    }

    /// `watch` printed each edit once, in order, and ends cleanly on SIGINT.
    private func expectEveryEditOnceThenAQuietExit(_ watch: RunningTabstore) throws {
        #expect(watch.wait { $0.stdoutLines.count >= Self.edits })
        watch.send(SIGINT)
        let exit = watch.exit()
        #expect(exit?.status == 0 && exit?.bySignal == false)
        #expect(watch.stdoutLines.map(maskingTimes) == Self.expectedLines(Self.edits))
        #expect(watch.stderr == "watching s (Ctrl-C to stop)\n")
    }
}
