import Foundation
import TabStoreTestSupport
import Testing

/// A server backend killed in the middle of a command leaves no part of its change: an
/// import is all there or not there at all, and the database passes `info`'s check.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct ServerCrashTests {
    @Test func anImportWhoseBackendIsKilledIsAllOrNothing() throws {
        let server = try ServerSandbox(ownServer: ())
        server.succeed("add", "before", "a")
        let sets = 300, tabs = 40
        let document = """
            {"format":"tabstore","version":1,"sets":[\((0..<sets).map { set in
                #"{"name":"i\#(set)","selectedIndex":0,"tabs":[\#((0..<tabs).map { #""t\#($0)""# }.joined(separator: ","))]}"#
            }.joined(separator: ","))]}
            """
        let path = server.sandbox.write(document, to: "big.json")
        let importing = try RunningTabstore(server.sandbox, ["import", path], database: server.url)
        // Wait until the import's transaction is open on the server, then kill its backend:
        // the postmaster ends every session and recovers.
        let inTransaction = """
            SELECT pid FROM pg_stat_activity WHERE application_name = 'tabstore' AND datname = current_database()
            AND xact_start IS NOT NULL AND pid <> pg_backend_pid()
            """
        var killed = false
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        // Until the import has said anything (then it ended before its transaction was seen).
        while !killed, importing.stdout.isEmpty, importing.stderr.isEmpty, ContinuousClock.now < deadline {
            if let pids = try? server.psql(inTransaction), let pid = pid_t(pids.split(separator: "\n").first ?? "") {
                killed = kill(pid, SIGKILL) == 0
            }
        }
        #expect(killed, "the import ended before its transaction was seen: \(importing.stdout)\(importing.stderr)")
        let exit = importing.exit()
        let lines = importing.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        if exit?.status == 0 {
            // It tried again on a new connection once the server had recovered.
            #expect(importing.stdout == "imported \(sets) sets\n" && importing.stderr == "")
        } else {
            // Lost mid-transaction (or mid-commit), and the server still recovering when it
            // tried again: exit 3, one line that says what became of the import.
            let said = ["tabstore: error: lost the connection to \(server.url); nothing was changed",
                        "tabstore: error: lost the connection to \(server.url) while committing; the change may or may not have been saved"]
            #expect(exit?.status == 3)
            #expect(lines.count == 2 && lines[1] == "" && said.contains { lines[0] == $0 }, "\(importing.stderr)")
            #expect(importing.stdout == "")
        }

        // After crash recovery: the set that was there before, and all or none of the import.
        var listed = server.run("list")
        for _ in 0..<200 where listed.code != 0 {
            usleep(50_000)
            listed = server.run("list")
        }
        let names = listed.stdout.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        // Saved when it said so; not saved when it said nothing was changed; either only
        // when the connection was lost during the commit itself and the server was not back
        // within the failover window to say which (and the message says so).
        let outcomes = exit?.status == 0 ? [sets + 1]
            : importing.stderr.contains("may or may not have been saved") ? [1, sets + 1] : [1]
        #expect(outcomes.contains(names.count), "\(names.count) sets after \(importing.stderr)")
        #expect(names.contains("before"))
        #expect(server.run("info").stdout.hasSuffix("check:           ok\n"))
        #expect(server.run("list", "before") == .ok("* 0  a\n"))
    }
}
