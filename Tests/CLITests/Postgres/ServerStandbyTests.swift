import Foundation
import TabStoreTestSupport
import Testing

/// A standby reached on its own or first of several hosts: it is called a standby (not
/// "read-only"), reads work on it, and several hosts mean the primary for writes.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct ServerStandbyTests {
    @Test func aStandbyIsCalledAStandbyAndServesReads() throws {
        let pair = try ReplicatedPostgres.start()
        defer { pair.destroy() }
        let database = try pair.createDatabase()
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["--db", pair.url(database: database), "add", "s", "a"]) == .ok("added 1 tab to s\n"))
        let standby = pair.standby.url(database: database)
        #expect(sandbox.runWithoutDatabase(["--db", standby, "add", "s", "b"]) == .failure(3, """
            tabstore: error: \(standby) is a standby server (a read-only replica) and cannot take writes; use the primary

            """))
        // Replayed, not only flushed, by the time it is read: wait for it.
        #expect(RunningTabstore.poll { sandbox.runWithoutDatabase(["--db", standby, "list", "s"]) == .ok("* 0  a\n") })
        // Several hosts, the standby first: writes go to the primary (target_session_attrs=read-write).
        let standbyFirst = "postgresql://postgres@127.0.0.1:\(pair.standby.port),127.0.0.1:\(pair.primary.port)/\(database)"
        #expect(sandbox.runWithoutDatabase(["--db", standbyFirst, "add", "s", "c"]) == .ok("added 1 tab to s\n"))
        #expect(sandbox.runWithoutDatabase(["--db", pair.primary.url(database: database), "list", "s"]) == .ok("* 0  a\n  1  c\n"))
    }

    /// Through several hosts, a write a standby refused (25006) is tried again on a new
    /// connection within the window: here it succeeds once that standby is promoted.
    @Test func aWriteAStandbyRefusedThroughSeveralHostsIsTriedAgain() throws {
        let pair = try ReplicatedPostgres.start()
        defer { pair.destroy() }
        let database = try pair.createDatabase()
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["--db", pair.url(database: database), "add", "s", "a"]) == .ok("added 1 tab to s\n"))
        let any = "postgresql://postgres@127.0.0.1:\(pair.standby.port),127.0.0.1:\(pair.primary.port)/\(database)?target_session_attrs=any"
        #expect(sandbox.runWithoutDatabase(["--db", any, "add", "s", "b"], environment: ["TABSTORE_FAILOVER_WINDOW": "0.5"]) == .failure(3, """
            tabstore: error: postgresql://postgres@127.0.0.1:\(pair.standby.port),127.0.0.1:\(pair.primary.port)/\(database) is a standby server (a read-only replica) and cannot take writes; use the primary

            """))
        let add = try RunningTabstore(sandbox, ["add", "s", "c"], database: any, environment: ["TABSTORE_FAILOVER_WINDOW": "60"])
        usleep(500_000)
        try pair.promoteStandby()
        #expect(add.exit(timeout: .seconds(60))?.status == 0)
        #expect(add.stdout == "added 1 tab to s\n")
        #expect(sandbox.runWithoutDatabase(["--db", pair.standby.url(database: database), "list", "s"]) == .ok("* 0  a\n  1  c\n"))
    }
}
