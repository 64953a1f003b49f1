import Testing
import TabStoreSQLite
@testable import TabStoreKit

/// Prepared statements are made once and reused, and none is left unfinalized.
@Suite struct StatementCacheTests {
    @Test func repeatedCallsReuseTheirStatements() throws {
        let store = try TabStore.inMemory()
        try store.add(["A", "B", "C"], to: "main", creatingSet: true)
        func round(_ times: Int) throws {
            for index in 0..<times {
                try store.select(.index(index % 3), in: "main")
                _ = try store.tabSet(named: "main")
                _ = try store.selectedTab(in: "main")
            }
        }
        // The first rounds prepare everything, the journal's occasional trim included.
        try round(150)
        let warm = try store.withDatabase { database throws(TabStoreError) in database.liveStatementCount }
        try round(300)
        let counts = try store.withDatabase { database throws(TabStoreError) in
            (live: database.liveStatementCount, cached: database.cachedStatementCount)
        }
        #expect(counts.live == warm)
        // Every statement SQLite holds is one the cache owns: nothing leaked.
        #expect(counts.live == counts.cached)
    }

    @Test func clearingTheCacheFinalizesEveryStatement() throws {
        let store = try TabStore.inMemory()
        try store.add(["A", "B"], to: "main", creatingSet: true)
        try store.remove([.index(0)], from: "main")
        _ = try store.export()
        let live = try store.withDatabase { database throws(TabStoreError) in
            database.clearStatementCache()
            return database.liveStatementCount
        }
        #expect(live == 0)
    }

    @Test func aStatementThatFailedIsDroppedFromTheCache() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        let store = try TabStore(path: path)
        try store.add(["A"], to: "main", creatingSet: true)
        let cached = try store.withDatabase { database throws(TabStoreError) in
            _ = try database.lastChangeID()
            return database.cachedStatementCount
        }
        // Another connection drops the journal: the cached SELECT now fails when stepped.
        var other: OpaquePointer?
        #expect(sqlite3_open(path, &other) == SQLITE_OK)
        #expect(sqlite3_exec(other, "DROP TABLE change", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(other)
        let failure = try store.withDatabase { database throws(TabStoreError) in
            (try? database.lastChangeID(), database.cachedStatementCount)
        }
        #expect(failure.0 == nil)
        #expect(failure.1 == cached - 1)
        // Finalized once the failing call returned: nothing is left behind.
        let counts = try store.withDatabase { database throws(TabStoreError) in
            (live: database.liveStatementCount, cached: database.cachedStatementCount)
        }
        #expect(counts.live == counts.cached)
    }
}
