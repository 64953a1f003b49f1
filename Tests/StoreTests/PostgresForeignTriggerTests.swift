import Testing
import TabStoreTestSupport
@testable import TabStoreKit
@testable import TabStorePostgres

/// A server database is shared by a team, and a trigger on tabstore's tables runs on every
/// client's writes, as the writing role when its function is not SECURITY DEFINER: one that
/// tabstore's migrations did not create is refused when a store opens, naming it, before
/// any write.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct PostgresForeignTriggerTests {
    /// A function that deletes every other set's tabs, as a trigger would call it.
    private static let wipe = """
        CREATE FUNCTION wipe_others() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN DELETE FROM tab WHERE set_id <> NEW.id; RETURN NEW; END $$;
        """

    @Test(arguments: [
        // Someone else's trigger, of another name.
        ("wipe", "CREATE TRIGGER wipe AFTER UPDATE ON tab_set FOR EACH ROW EXECUTE FUNCTION wipe_others()"),
        // tabstore's own trigger, dropped and made again to call another function.
        ("tab_set_written_check_set", """
            DROP TRIGGER tab_set_written_check_set ON tab_set;
            CREATE TRIGGER tab_set_written_check_set AFTER UPDATE ON tab_set FOR EACH ROW EXECUTE FUNCTION wipe_others()
            """),
    ])
    func aTriggerThatTabstoreDidNotCreateIsRefusedBeforeAnyWrite(name: String, trigger: String) throws {
        let server = try PostgresServer.shared()
        let url = try server.createDatabase()
        let database = String(url.split(separator: "/").last ?? "")
        let location: String
        do {
            let store = try TabStore(postgresURL: url)
            try store.add(["A", "B"], to: "main", creatingSet: true)
            try store.add(["X", "Y"], to: "other", creatingSet: true)
            location = store.location
        }
        _ = try server.psql(database, Self.wipe + trigger)
        let latest = try #require(PostgresSchema.migrations.last?.version)
        let difference = TabStoreError.SchemaDifference(kind: .extra, objectType: "trigger", name: name)
        let error = thrownError { () throws(TabStoreError) in try TabStore(postgresURL: url) }
        #expect(error == TabStoreError(.foreignSchema(path: location, version: latest, difference: difference)))
        #expect(error?.description
            == "\(location) holds a trigger \"\(name)\" that tabstore's schema version \(latest) does not have; tabstore does not open it")
        #expect(try server.psql(database, "SELECT t.title FROM tab t JOIN tab_set s ON s.id = t.set_id ORDER BY s.name, t.position")
            == "A\nB\nX\nY\n")
    }
}
