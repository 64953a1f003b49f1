import TabStoreKit

/// Store `select` against the raw C loop running the same statements, at both
/// durability settings, on files on disk.
struct SelectThroughput {
    let size: BenchSize
    let folder: ScratchFolder

    func run() throws -> [Row] {
        progress("select throughput, Store vs raw SQLite, synchronous=NORMAL")
        let normal = try compare(.normal, synchronous: "NORMAL", operations: size.pick(10_000, quick: 3_000))
        progress("select throughput, Store vs raw SQLite, synchronous=FULL")
        let full = try compare(.full, synchronous: "FULL", operations: size.pick(1_500, quick: 500))
        return [
            Row(
                "selectVsRawNormal", "select, synchronous=NORMAL: Store vs raw C loop", unit: .perSecond,
                tabstore: normal.store, peer: normal.raw, peerName: "raw", target: .ratio(atLeast: 0.8)
            ),
            Row(
                "selectVsRawFull", "select, synchronous=FULL: Store vs raw C loop", unit: .perSecond,
                tabstore: full.store, peer: full.raw, peerName: "raw", target: nil
            ),
        ]
    }

    /// Selections per second on each side: the median of several rounds of `operations`
    /// each. Rounds alternate which side goes first, so drift (page cache, a WAL
    /// checkpoint, another process) falls on both sides alike.
    private func compare(
        _ durability: TabStore.Options.Durability, synchronous: String, operations: Int
    ) throws -> (store: Double, raw: Double) {
        let store = try Fixture.store(at: folder.file("select-store-\(synchronous).sqlite"), durability: durability)
        let raw = try Fixture.raw(at: folder.file("select-raw-\(synchronous).sqlite"), synchronous: synchronous)
        // Warm both: statements prepared, pages cached, WAL created.
        _ = try storeSelectionsPerSecond(store, operations: 100)
        _ = try rawSelectionsPerSecond(raw, operations: 100)
        var storeRates: [Double] = []
        var rawRates: [Double] = []
        for round in 0..<size.pick(7, quick: 3) {
            if round % 2 == 0 {
                rawRates.append(try rawSelectionsPerSecond(raw, operations: operations))
                storeRates.append(try storeSelectionsPerSecond(store, operations: operations))
            } else {
                storeRates.append(try storeSelectionsPerSecond(store, operations: operations))
                rawRates.append(try rawSelectionsPerSecond(raw, operations: operations))
            }
        }
        return (median(storeRates), median(rawRates))
    }
}
