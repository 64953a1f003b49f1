import Dispatch
import Synchronization
import Testing
import TabStoreTestSupport
@testable import TabStoreKit
@testable import TabStorePostgres

/// The journal keeps `JournalLimit.changes` rows in all, so a write to one set trims the
/// oldest rows of any set, and its COMMIT checks the sets it trimmed. Writers of different
/// sets do not wait for each other: the check of a set that another client is writing at
/// that moment must not read it half before and half after that client's COMMIT.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct PostgresJournalTrimTests {
    @Test func aWriteThatTrimsTheJournalOfASetBeingWrittenCommits() throws {
        let server = try PostgresServer.shared()
        let url = try server.createDatabase()
        let database = String(url.split(separator: "/").last ?? "")
        let trimmer = try TabStore(postgresURL: url), writer = try TabStore(postgresURL: url)
        try trimmer.add(["a0", "a1"], to: "a", creatingSet: true)
        // Many tabs make the check of "b" long enough for its writer to commit during it.
        try writer.add((0..<5_000).map { "b\($0)" }, to: "b", creatingSet: true)
        // The journal full of rows of "b" (copies of its newest), which the writes to "a" trim.
        _ = try server.psql(database, """
            INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, from_index, to_index, title, new_title,
                                tab_count, selected, titles, indices, tab_ids, change_id)
            SELECT set_name, revision, kind, at, set_id, tab_index, from_index, to_index, title, new_title,
                   tab_count, selected, titles, indices, tab_ids, change_id || '-' || copy
            FROM change, generate_series(1, \(JournalLimit.changes)) AS copy
            WHERE id = (SELECT max(id) FROM change WHERE set_name = 'b')
            """)
        let stop = Atomic<Bool>(false)
        let failure = Mutex<String?>(nil)
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) {
            var step = 0
            while !stop.load(ordering: .relaxed) {
                do { _ = try writer.select(.index(step % 2), in: "b") } catch { failure.withLock { $0 = $0 ?? "b: \(error)" } }
                step += 1
            }
        }
        // Every 100th journal row trims; 2,000 writes to "a" trim about 10 times during writes to "b".
        for step in 0..<2_000 where failure.withLock({ $0 }) == nil {
            do { _ = try trimmer.select(.index(step % 2), in: "a") } catch { failure.withLock { $0 = $0 ?? "a: \(error)" } }
        }
        stop.store(true, ordering: .relaxed)
        done.wait()
        #expect(failure.withLock { $0 } == nil)
        // The trims did reach rows of "b", and both sets agree with their journals.
        #expect(try Int(server.psql(database, "SELECT count(*) FROM change WHERE set_name = 'b'").dropLast())! < JournalLimit.changes)
        #expect(try server.psql(database, """
            SELECT s.name, s.revision = (SELECT revision FROM change WHERE set_id = s.id ORDER BY id DESC LIMIT 1)
            FROM tab_set s ORDER BY s.name
            """) == "a|t\nb|t\n")
    }
}
