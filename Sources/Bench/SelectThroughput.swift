import TabStoreKit

/// Store `select` against the raw C loop running the same statements, at both
/// durability settings, on files on disk; and in memory, against the floor: a raw loop
/// that only looks up the tab and updates the selection in a transaction.
struct SelectThroughput {
    let size: BenchSize
    let folder: ScratchFolder

    /// Pairs of rounds for each loop row (`pairedRates`).
    private var pairs: Int { size.pick(5, quick: 1) }
    /// Selections a round at NORMAL. The journal keeps its last 10,000 rows: a full round's
    /// warm-up fills it, so the timed round also trims it, as a long-used store does;
    /// `--quick`'s rounds stay below it.
    private var normalOperations: Int { size.pick(10_000, quick: 3_000) }

    func run() throws -> [Row] {
        progress("select throughput, Store vs raw SQLite, synchronous=NORMAL")
        // Blocks of 500 selects a side: long enough that reading the clock is a small part of
        // a block at NORMAL, short enough at FULL, where each commit waits for the disk.
        let normal = try compare(.normal, synchronous: "NORMAL", operations: normalOperations, block: 500)
        progress("select throughput, the raw C loop against itself, synchronous=NORMAL")
        let itself = try rawAgainstItself(operations: normalOperations, block: 500)
        progress("select throughput, Store vs raw SQLite, synchronous=FULL")
        let full = try compare(.full, synchronous: "FULL", operations: size.pick(1_500, quick: 500), block: 20)
        return [
            Row(
                "selectVsRawNormal", "select, synchronous=NORMAL: Store vs raw C loop", unit: .perSecond,
                tabstore: normal.store, peer: normal.raw, peerName: "raw", target: .ratio(atLeast: 0.8)
            ),
            Row(
                "selectRawVsItselfNormal", "select, synchronous=NORMAL: raw C loop vs itself (a sample of the timing's error)",
                unit: .perSecond, tabstore: itself.store, peer: itself.raw, peerName: "raw", target: nil
            ),
            Row(
                "selectVsRawFull", "select, synchronous=FULL: Store vs raw C loop", unit: .perSecond,
                tabstore: full.store, peer: full.raw, peerName: "raw", target: nil
            ),
        ]
    }

    /// In memory, where no disk hides anything: Store's `select` against
    /// `RawTabStore.selectOnly`, as a cost ratio (the raw rate over Store's).
    func inMemory() throws -> [Row] {
        progress("select throughput in memory, Store vs the raw lookup-and-update floor")
        let operations = size.pick(20_000, quick: 5_000)
        // Blocks of 1,000: a select in memory waits for no disk, so more fit in a block.
        let rates = try pairedRates(
            pairs: pairs, operations: operations, block: 1_000,
            makeStore: { _ in
                let store = try TabStore.inMemory()
                try store.add(Fixture.titles(10), to: Fixture.setName, creatingSet: true)
                return { try storeSelections(store, $0) }
            },
            makeRaw: { _ in
                let raw = try RawSelections(at: ":memory:", synchronous: "NORMAL", ids: Fixture.ids(10))
                return { try raw.selectOnly($0) }
            }
        )
        return [
            Row(
                "selectInMemoryVsFloor", "select, in memory: cost vs raw lookup+update loop", unit: .perSecond,
                tabstore: rates.store, peer: rates.raw, peerName: "raw", ratio: .peerOverTabstore,
                target: nil
            ),
        ]
    }

    /// Selections per second on each side, in the pair of rounds with the median ratio,
    /// each round on new files (`pairedRates`).
    private func compare(
        _ durability: TabStore.Options.Durability, synchronous: String, operations: Int, block: Int
    ) throws -> PairedRates {
        try pairedRates(
            pairs: pairs, operations: operations, block: block,
            makeStore: { round in
                let store = try Fixture.store(at: folder.file("select-store-\(synchronous)-\(round).sqlite"), durability: durability)
                return { try storeSelections(store, $0) }
            },
            makeRaw: { round in try rawLoop(file: "select-raw-\(synchronous)-\(round).sqlite", synchronous: synchronous) }
        )
    }

    /// The NORMAL comparison with the raw loop on both sides, right after it: how far from 1
    /// the timing put two identical loops this time. One sample of the timing's error;
    /// its spread over runs is the error to read the NORMAL ratio with.
    private func rawAgainstItself(operations: Int, block: Int) throws -> PairedRates {
        try pairedRates(
            pairs: pairs, operations: operations, block: block,
            makeStore: { round in try rawLoop(file: "select-itself-a-\(round).sqlite", synchronous: "NORMAL") },
            makeRaw: { round in try rawLoop(file: "select-itself-b-\(round).sqlite", synchronous: "NORMAL") }
        )
    }

    /// The raw loop on a new database, the file `name` in the scratch folder.
    private func rawLoop(file name: String, synchronous: String) throws -> TimedLoop {
        let raw = try RawSelections(at: folder.file(name), synchronous: synchronous, ids: Fixture.ids(10))
        return { try raw.select($0) }
    }
}
