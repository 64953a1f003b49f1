import TabStoreKit

/// The sync figures: what recording mutations adds to a local edit, the round trips of a
/// push and pull, and a pull's cost against the size of the server's store.
struct SyncRows {
    let size: BenchSize
    let folder: ScratchFolder

    func run() throws -> [Row] {
        progress("sync: local edits with and without sync, round trips, pulls from a small and a large server")
        let (device, plain) = try localEditRates(durability: .full, operations: size.pick(500, quick: 200), rounds: size.pick(7, quick: 3))
        let (deviceNormal, plainNormal) = try localEditRates(durability: .normal, operations: size.pick(4_000, quick: 1_000), rounds: size.pick(7, quick: 3))
        let one = try roundTrips(pendingEdits: 1)
        let thousand = try roundTrips(pendingEdits: 1_000)
        let small = try pullMilliseconds(serverSets: 10, rounds: size.pick(40, quick: 10))
        let large = try pullMilliseconds(serverSets: size.pick(5_000, quick: 1_000), rounds: size.pick(40, quick: 10))
        return [
            Row(
                "syncLocalEdit", "sync: local select on a device that syncs vs a file that does not", unit: .perSecond,
                tabstore: device, peer: plain, peerName: "no sync", ratio: .peerOverTabstore, target: .ratio(atMost: 1.3),
                note: "the ratio is the cost of an edit with sync over one without: one mutation row more in the same transaction, FULL (the default)"
            ),
            Row(
                "syncLocalEditNormal", "sync: the same, synchronous=NORMAL", unit: .perSecond,
                tabstore: deviceNormal, peer: plainNormal, peerName: "no sync", ratio: .peerOverTabstore, target: nil,
                note: "without an fsync a commit costs the pages it writes, and the log's row is on pages of its own"
            ),
            Row(
                "syncOneEdit", "sync: one pending edit pushed and the server's changes pulled", unit: .roundTrips,
                tabstore: Double(one.roundTrips), target: .value(atMost: 2)
            ),
            Row(
                "syncThousandEdits", "sync: 1,000 pending edits pushed, then pulled", unit: .roundTrips,
                tabstore: Double(thousand.roundTrips), target: .value(atMost: 3),
                note: "\(TabSyncLimits.mutationsPerPush) mutations a push; the server applies each in its own transaction (\(Int(thousand.milliseconds)) ms for all, FULL)"
            ),
            Row(
                "syncPullLargeServer", "sync: a pull after one set changed, server of \(size.pick(5_000, quick: 1_000)) sets vs 10 (median)",
                unit: .milliseconds, tabstore: large, peer: small, peerName: "10 sets", target: .ratio(atMost: 1.5),
                note: "the pull reads the journal since the device's cookie, so it follows the changes, not the store"
            ),
        ]
    }

    /// Selects per second on a device that syncs and on a file that does not, in
    /// alternating rounds; the median of each.
    private func localEditRates(
        durability: TabStore.Options.Durability, operations: Int, rounds: Int
    ) throws -> (device: Double, plain: Double) {
        let device = try Fixture.store(at: folder.file("sync-device-\(durability).sqlite"), durability: durability)
        try device.startSync(server: "bench")
        let plain = try Fixture.store(at: folder.file("sync-plain-\(durability).sqlite"), durability: durability)
        func rate(_ store: TabStore) throws -> Double {
            let elapsed = try seconds {
                for operation in 0..<operations { try store.select(.index(operation % 2), in: Fixture.setName) }
            }
            return Double(operations) / elapsed
        }
        var deviceRates: [Double] = [], plainRates: [Double] = []
        for round in 0..<rounds {
            if round % 2 == 0 {
                deviceRates.append(try rate(device))
                plainRates.append(try rate(plain))
            } else {
                plainRates.append(try rate(plain))
                deviceRates.append(try rate(device))
            }
        }
        return (median(deviceRates), median(plainRates))
    }

    /// One sync of a device holding `pendingEdits` edits, with a server file.
    private func roundTrips(pendingEdits: Int) throws -> (roundTrips: Int, milliseconds: Double) {
        let server = try TabStore(path: folder.file("sync-server-\(pendingEdits).sqlite"))
        let device = try TabStore(path: folder.file("sync-pending-\(pendingEdits).sqlite"), options: .init(durability: .normal))
        try device.startSync(server: "bench")
        for edit in 0..<pendingEdits { try device.add(["tab \(edit)"], to: Fixture.setName, creatingSet: true) }
        var report: TabSyncReport?
        let elapsed = try seconds { report = try device.sync(with: server) }
        return (report?.roundTrips ?? 0, elapsed * 1000)
    }

    /// The median time of a device's sync after another device changed one set of a
    /// server holding `serverSets` sets of 5 tabs.
    private func pullMilliseconds(serverSets: Int, rounds: Int) throws -> Double {
        let server = try TabStore(path: folder.file("sync-pull-server-\(serverSets).sqlite"), options: .init(durability: .normal))
        try server.importDocument(TabStoreDocument(sets: (0..<serverSets).map { number in
            TabStoreDocument.Entry(name: "set \(number)", selectedIndex: 0, tabs: (0..<5).map { "tab \($0)" })
        }))
        let device = try TabStore(path: folder.file("sync-pull-device-\(serverSets).sqlite"), options: .init(durability: .normal))
        let other = try TabStore(path: folder.file("sync-pull-other-\(serverSets).sqlite"), options: .init(durability: .normal))
        for store in [device, other] {
            try store.startSync(server: "bench")
            try store.sync(with: server)
        }
        var times: [Double] = []
        for round in 0..<rounds {
            try other.select(.index(round % 5), in: "set 0")
            try other.sync(with: server)
            times.append(try seconds { try device.sync(with: server) } * 1000)
        }
        return median(times)
    }
}
