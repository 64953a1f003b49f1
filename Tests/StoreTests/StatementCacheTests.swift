import Testing
@testable import Store

/// Prepared statements are made once and reused, and none is left unfinalized.
@Suite struct StatementCacheTests {
    @Test func repeatedCallsReuseTheirStatements() throws {
        let store = try TabStore.inMemory()
        try store.add(["A", "B", "C"], to: "main")
        try store.select(.index(1), in: "main")
        _ = try store.tabSet(named: "main")
        let afterOneRound = try store.withDatabase { database throws(TabStoreError) in database.liveStatementCount }
        for index in 0..<100 {
            try store.select(.index(index % 3), in: "main")
            _ = try store.tabSet(named: "main")
            _ = try store.selectedTab(in: "main")
        }
        let counts = try store.withDatabase { database throws(TabStoreError) in
            (live: database.liveStatementCount, cached: database.cachedStatementCount)
        }
        #expect(counts.live == afterOneRound)
        // Every statement SQLite holds is one the cache owns: nothing leaked.
        #expect(counts.live == counts.cached)
    }

    @Test func clearingTheCacheFinalizesEveryStatement() throws {
        let store = try TabStore.inMemory()
        try store.add(["A", "B"], to: "main")
        try store.remove([.index(0)], from: "main")
        _ = try store.export()
        let live = try store.withDatabase { database throws(TabStoreError) in
            database.clearStatementCache()
            return database.liveStatementCount
        }
        #expect(live == 0)
    }
}
