import Foundation
import TabStoreKit

/// Store `select` against what an app would use instead to remember a tab bar:
/// `UserDefaults` set + synchronize, and a small JSON file written atomically.
struct Peers {
    let size: BenchSize
    let folder: ScratchFolder

    /// What the JSON peer saves on every selection: the whole small set, as an app would.
    private struct SavedTabSet: Codable {
        var name: String
        var selectedIndex: Int
        var tabs: [String]
    }

    func run() throws -> [Row] {
        progress("select vs UserDefaults and an atomic JSON file write")
        let operations = size.pick(1_000, quick: 300)
        let full = try Fixture.store(at: folder.file("peers-full.sqlite"), durability: .full)
        let normal = try Fixture.store(at: folder.file("peers-normal.sqlite"), durability: .normal)

        let suite = "tabstore-bench-\(getpid())"
        guard let defaults = UserDefaults(suiteName: suite) else { throw BenchError("UserDefaults(suiteName:) failed") }
        defer {
            defaults.removePersistentDomain(forName: suite)
            defaults.synchronize()
        }
        let jsonFile = URL(fileURLWithPath: folder.file("tabs.json"))
        let encoder = JSONEncoder()
        var saved = SavedTabSet(name: Fixture.setName, selectedIndex: 0, tabs: Fixture.titles(10))

        // The floor of "one commit per selection": the baseline loop, a single
        // UPDATE per transaction at NORMAL, no journal, no lookups.
        let floor = try RawConnection(path: folder.file("peers-floor.sqlite"), synchronous: "NORMAL")
        try floor.execute("CREATE TABLE IF NOT EXISTS selection (id INTEGER PRIMARY KEY, tab INTEGER); INSERT INTO selection VALUES (1, 0)")
        let floorBegin = try floor.prepare("BEGIN IMMEDIATE"), floorCommit = try floor.prepare("COMMIT")
        let floorUpdate = try floor.prepare("UPDATE selection SET tab = ? WHERE id = 1")

        let sides: [(name: String, perSecond: () throws -> Double)] = [
            ("floor", {
                let elapsed = try seconds {
                    for operation in 0..<operations * 4 {
                        try floorBegin.run()
                        floorUpdate.bind(1, Int64(operation % 2))
                        try floorUpdate.run()
                        try floorCommit.run()
                    }
                }
                return Double(operations * 4) / elapsed
            }),
            ("full", { try storeSelectionsPerSecond(full, operations: operations) }),
            ("normal", { try storeSelectionsPerSecond(normal, operations: operations * 4) }),
            ("defaults", {
                let elapsed = seconds {
                    for operation in 0..<operations {
                        defaults.set((operation + 1) % 2, forKey: "selectedIndex")
                        defaults.synchronize()
                    }
                }
                return Double(operations) / elapsed
            }),
            ("json", {
                let elapsed = try seconds {
                    for operation in 0..<operations {
                        saved.selectedIndex = (operation + 1) % 2
                        try encoder.encode(saved).write(to: jsonFile, options: .atomic)
                    }
                }
                return Double(operations) / elapsed
            }),
        ]
        // Warm-up, then rounds in a rotating order so no side always runs first.
        for side in sides { _ = try side.perSecond() }
        var rates: [String: [Double]] = [:]
        for round in 0..<size.pick(5, quick: 2) {
            for index in sides.indices {
                let side = sides[(index + round) % sides.count]
                rates[side.name, default: []].append(try side.perSecond())
            }
        }
        let rate = { (name: String) in median(rates[name] ?? []) }

        return [
            Row(
                "selectVsUserDefaults", "select (FULL, default) vs UserDefaults set+synchronize", unit: .perSecond,
                tabstore: rate("full"), peer: rate("defaults"), peerName: "UserDefaults", target: nil
            ),
            Row(
                "selectVsAtomicJSON", "select (FULL, default) vs atomic JSON file write", unit: .perSecond,
                tabstore: rate("full"), peer: rate("json"), peerName: "JSON file", target: nil
            ),
            Row(
                "selectNormalVsUserDefaults", "select (NORMAL) vs UserDefaults set+synchronize", unit: .perSecond,
                tabstore: rate("normal"), peer: rate("defaults"), peerName: "UserDefaults", target: nil
            ),
            Row(
                "selectNormalVsAtomicJSON", "select (NORMAL) vs atomic JSON file write", unit: .perSecond,
                tabstore: rate("normal"), peer: rate("json"), peerName: "JSON file", target: nil
            ),
            Row(
                "rawUpdateVsUserDefaults", "raw 1-UPDATE commit (NORMAL) vs UserDefaults: the ceiling", unit: .perSecond,
                tabstore: rate("floor"), peer: rate("defaults"), peerName: "UserDefaults", target: nil
            ),
        ]
    }
}
