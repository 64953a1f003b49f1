import TabStorePostgres
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// `TabStore.select` on a server redone with bare `PostgresConnection` pipelines: the
/// statements the PostgreSQL backend sends for it (copied from `PostgresRecords.swift`,
/// `PostgresRecords+Sets.swift` and `PostgresRecords+Journal.swift` as of main's 3fccaaa,
/// where the lock became a statement of its own), no rules, no model.
/// When the backend's statements change, this file must follow.
final class RawPostgresTabStore {
    let connection: PostgresConnection

    private static let lockSet = "SELECT id FROM tab_set WHERE name = $1 FOR UPDATE"
    private static let readSet = """
        SELECT s.id, s.revision, s.base, t.id, t.position - s.base, t.title, t.uuid, t.payload
        FROM tab_set s LEFT JOIN tab t ON t.id = s.selected_tab_id
        """ + " WHERE s.name = $1"
    private static let tabsOfNamedSet = """
        SELECT t.id, t.position, t.title, t.uuid, t.payload FROM tab t JOIN tab_set s ON s.id = t.set_id
        WHERE s.name = $1 ORDER BY t.position
        """
    private static let lastClosedOfNamedSet = """
        SELECT c.id, c.title, c.position, c.was_selected, c.uuid, c.payload FROM closed_tab c
        JOIN tab_set s ON s.id = c.set_id WHERE s.name = $1 ORDER BY c.id DESC LIMIT 1
        """
    private static let nameRevisionOfName = "SELECT revision FROM name_revision WHERE name = $1"
    private static let updateSet = "UPDATE tab_set SET revision = $1, selected_tab_id = $2 WHERE id = $3"
    private static let journalLock = "SELECT pg_advisory_xact_lock(7419633)"
    private static let recordChange = """
        WITH added AS (
            INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, from_index, to_index,
                                title, new_title, tab_count, selected, titles, indices, tab_ids)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id
        )
        DELETE FROM change WHERE (SELECT id % 100 FROM added) = 0 AND id <= (SELECT id FROM added) - 10000
        """
    private static let notify = "SELECT pg_notify('tabstore_changes', '')"

    /// Connects with the session settings the backend gives its connections (`.full` durability).
    init(url: String) throws {
        connection = try PostgresConnection(url: url)
        _ = try connection.pipeline([
            PostgresStatement("SELECT set_config('lock_timeout', $1, false)", ["5000ms"]),
            PostgresStatement("SELECT set_config('synchronous_commit', $1, false)", ["on"]),
        ])
    }

    /// What `TabStore.select(.index(position), in:)` sends: BEGIN, the set's lock, then (in
    /// statements of their own, so they see the last lock holder's commit) the set and
    /// everything an edit may need, in one round trip; then the update, the journal
    /// lock, the journal row (old and new tab's index, title and id), the notification and
    /// COMMIT in a second.
    func select(position: Int, in setName: String) throws {
        let read = try connection.pipeline([
            PostgresStatement("BEGIN"),
            PostgresStatement(Self.lockSet, [setName]), PostgresStatement(Self.readSet, [setName]),
            PostgresStatement(Self.tabsOfNamedSet, [setName]), PostgresStatement(Self.lastClosedOfNamedSet, [setName]),
            PostgresStatement(Self.nameRevisionOfName, [setName]),
        ])
        let set = read[2]
        let tabs = read[3]
        guard set.count == 1, let setID = set.value(0, 0), let revision = set.int(0, 1), let base = set.int(0, 2),
              let row = (0..<tabs.count).first(where: { tabs.int($0, 1) == base + position }) else {
            _ = try connection.executeScript("ROLLBACK")
            throw BenchError("raw PostgreSQL select: no set \(setName) or no tab at \(position)")
        }
        let oldID = set.value(0, 3)
        let newID = tabs.value(row, 0)
        guard newID != oldID else {
            _ = try connection.pipeline([PostgresStatement("COMMIT")])
            return
        }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let at = Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
        let newRevision = String(revision + 1)
        _ = try connection.pipeline([
            PostgresStatement(Self.updateSet, [newRevision, newID, setID]),
            PostgresStatement(Self.journalLock),
            // selected: from_index, to_index, title, new_title and tab_ids (old,new); the rest NULL.
            PostgresStatement(Self.recordChange, [
                setName, newRevision, "selected", String(at), setID, nil, set.value(0, 4), String(position),
                set.value(0, 5), tabs.value(row, 2), nil, nil, nil, nil,
                (set.value(0, 6) ?? "") + "," + (tabs.value(row, 3) ?? ""),
            ]),
            PostgresStatement(Self.notify),
            PostgresStatement("COMMIT"),
        ])
    }
}
