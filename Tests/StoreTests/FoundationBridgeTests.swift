import Foundation
import TabStoreFoundation
import TabStoreSQLite
import Testing
@testable import TabStoreKit

/// What an app that uses Foundation gets, on Linux as on Apple platforms: the store's own
/// sentence as `localizedDescription`, file URLs, UUIDs; and errors typed as
/// `TabStoreError` wherever they come from, observation streams included.
@Suite struct FoundationBridgeTests {
    let folder = TemporaryFolder()

    @Test(arguments: [
        TabStoreError(.setNotFound(set: "main")),
        TabStoreError(.indexOutOfRange(index: 9, count: 3, set: "main")),
        TabStoreError(.busy(path: "/data/tabs.sqlite")),
        TabStoreError(.payloadTooLarge(bytes: 4097, limit: 4096)),
    ])
    func localizedDescriptionIsTheStoresOwnSentence(error: TabStoreError) {
        // As an app's `catch` sees it: an `any Error`, described by Foundation.
        #expect((error as any Error).localizedDescription == error.description)
    }

    @Test func aThrownErrorSaysWhatWentWrongInItsLocalizedDescription() throws {
        let store = try TabStore.inMemory()
        try store.add(["Home", "Reviews"], to: "main", creatingSet: true)
        do {
            try store.select(9, in: "main")
            Issue.record("select of index 9 did not throw")
        } catch {
            #expect(error.localizedDescription == "index 9 is out of range for set \"main\" (valid: 0...1 or -2...-1)")
        }
    }

    @Test func aStoreOpensAtAFileURLMakingItsFoldersAndRefusesAnyOtherURL() throws {
        let url = URL(fileURLWithPath: folder.path).appending(path: "App Support/tabs.sqlite")
        let store = try TabStore(url: url)
        #expect(store.location == folder.path + "/App Support/tabs.sqlite")
        let web = try #require(URL(string: "https://example.com/tabs.sqlite"))
        #expect(thrownError { () throws(TabStoreError) in try TabStore(url: web) }
            == TabStoreError(.cannotOpen(path: "https://example.com/tabs.sqlite", reason: "not a file URL")))
    }

    @Test func tabIDsConvertToAndFromUUID() throws {
        let store = try TabStore.inMemory()
        let id = try store.add(["Home"], to: "main", creatingSet: true).tabs[0].id
        #expect(id.uuid.uuidString.lowercased() == id.uuidString)
        #expect(TabID(id.uuid) == id)
        let uuid = UUID()
        #expect(TabID(uuid).uuid == uuid)
    }

    @Test func observationStreamsThrowTabStoreErrorSoACatchNeedsNoCast() async throws {
        let path = folder.file()
        let store = try TabStore(path: path, options: .init(durability: .normal, changePollInterval: .milliseconds(10)))
        try await store.write { try $0.add(["A"], to: "main", creatingSet: true) }
        var handle: OpaquePointer?
        try #require(sqlite3_open(path, &handle) == SQLITE_OK)
        try #require(sqlite3_exec(handle, "PRAGMA foreign_keys = OFF; DROP TABLE tab", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)
        // `do throws(TabStoreError)` compiles only because the loop throws nothing else.
        var caught: TabStoreError?
        do throws(TabStoreError) {
            for try await _ in store.observe("main") {}
        } catch {
            caught = error
        }
        guard case let .sqlite(_, _, message, _)? = caught?.reason else {
            Issue.record("expected an SQLite error, got \(String(describing: caught))")
            return
        }
        #expect(message == "no such table: tab")
    }
}
