import TabStorePostgres
import TabStoreKit
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// `TabStore.select` on a server redone with bare `PostgresConnection` pipelines: the
/// statements the PostgreSQL backend sends for `select(.index(_:), in:)` (copied from
/// `PostgresSnapshot.swift`, `PostgresRecords+Sets.swift` and `PostgresRecords+Journal.swift`,
/// as the server logs them with `log_statement=all`), no rules, no model.
/// When the backend's statements change, this file must follow.
final class RawPostgresTabStore {
    let connection: PostgresConnection

    private static let lockNames = PostgresLock.names
    /// The set, its selected tab (index at column 7) and its tab count.
    private static let readSet = """
        SELECT s.id, s.revision, s.base, t.id, t.title, t.uuid, t.payload, t.position - s.base,
               (SELECT max(position) FROM tab WHERE set_id = s.id) - s.base + 1
        FROM tab_set s LEFT JOIN tab t ON t.id = s.selected_tab_id WHERE s.name = $1
        """
    private static let nameRevisionOfName = "SELECT revision FROM name_revision WHERE name = $1"
    private static let tabsAtIndices = """
        SELECT t.id, t.title, t.uuid, t.payload, t.position - s.base, t.position - e.top
        FROM tab t JOIN tab_set s ON s.id = t.set_id
        CROSS JOIN LATERAL (SELECT max(position) + 1 AS top FROM tab WHERE set_id = s.id) e
        WHERE s.name = $1 AND (t.position - s.base = ANY($2::bigint[]) OR t.position - e.top = ANY($3::bigint[]))
        """
    private static let updateSet = "UPDATE tab_set SET revision = $1, selected_tab_id = $2::bigint WHERE id = $3::bigint"
    private static let recordChange = """
        WITH added AS (
            INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, from_index, to_index, title,
                                new_title, tab_count, selected, titles, indices, tab_ids, change_id)
            VALUES ($1, $2, $3, $4, coalesce($5::bigint, (SELECT id FROM tab_set WHERE name = $17)),
                    $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
            RETURNING id
        )
        DELETE FROM change WHERE (SELECT id % $19 FROM added) = 0 AND id <= (SELECT id FROM added) - $18
        """
    private static let notify = PostgresChannel.notifyWatched
    private static let setTimeout = "SELECT pg_catalog.set_config('lock_timeout', $1, true)"

    /// Connects with the session settings the backend gives its connections (`.full` durability).
    init(url: String) throws {
        connection = try PostgresConnection(url: url)
        _ = try connection.pipeline([
            PostgresStatement("SELECT set_config('lock_timeout', $1, false)", ["5000ms"]),
            PostgresStatement("SELECT set_config('synchronous_commit', $1, false)", ["on"]),
        ])
    }

    /// The set, its selected tab and tab count, in one round trip: what `TabStore.selectedTab`
    /// sends once the store holds the set (`restore`).
    func restore(_ setName: String) throws -> Int {
        let set = try connection.execute(Self.readSet, [setName])
        guard let index = set.int(0, 7) else { throw BenchError("raw PostgreSQL restore: no set \(setName)") }
        return index
    }

    /// What `TabStore.select(.index(position), in:)` sends: BEGIN, the set's lock, then (in
    /// statements of their own, so they see the last lock holder's commit) the set, its
    /// name's revision and the tab at the index, in one round trip; then the update, the
    /// journal lock, the journal row (old and new tab's index, title and id, and the write's
    /// id), the notification and COMMIT in a second.
    func select(position: Int, in setName: String) throws {
        let read = try connection.pipeline([
            PostgresStatement("BEGIN"), PostgresStatement(Self.setTimeout, ["5000ms"]),
            PostgresStatement(Self.lockNames, ["public", "{\"\(setName)\"}"]), PostgresStatement(Self.readSet, [setName]),
            PostgresStatement(Self.nameRevisionOfName, [setName]),
            PostgresStatement(Self.tabsAtIndices, [setName, "{\(position)}", "{}"]),
        ])
        let set = read[3]
        let tab = read[5]
        guard set.count == 1, let setID = set.value(0, 0), let revision = set.int(0, 1), tab.count == 1 else {
            _ = try connection.executeScript("ROLLBACK")
            throw BenchError("raw PostgreSQL select: no set \(setName) or no tab at \(position)")
        }
        let oldID = set.value(0, 3)
        let newID = tab.value(0, 0)
        guard newID != oldID else {
            _ = try connection.pipeline([PostgresStatement("COMMIT")])
            return
        }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let at = Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
        let newRevision = String(revision + 1)
        let setChannel = PostgresChannel.ofSet(setName, schema: "public")
        _ = try connection.pipeline([
            PostgresStatement(Self.setTimeout, ["5000ms"]),
            PostgresStatement(Self.updateSet, [newRevision, newID, setID]),
            // selected: from_index, to_index, title, new_title, tab_ids (old,new) and the
            // write's id; the rest NULL.
            PostgresStatement(Self.recordChange, [
                setName, newRevision, "selected", String(at), setID, nil, set.value(0, 7), String(position),
                set.value(0, 4), tab.value(0, 1), nil, nil, nil, nil,
                (set.value(0, 5) ?? "") + "," + (tab.value(0, 2) ?? ""), TabID().uuidString,
                nil, String(JournalLimit.changes), String(JournalLimit.trimEvery),
            ]),
            PostgresStatement(Self.notify, [
                "{\(PostgresChannel.everySet),\(setChannel)}", "{\"\(setName)\",\"\"}",
                "{\(PostgresChannel.watchKey(PostgresChannel.everySet, schema: "public")),\(PostgresChannel.watchKey(setChannel, schema: "public"))}",
            ]),
            PostgresStatement("COMMIT"),
        ])
    }
}
