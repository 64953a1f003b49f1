import Foundation
import TabStoreKit

/// Costs that must not grow with the set: 10,000-tab sets against 10-tab ones, edits
/// and whole-set reads of a 10,000-tab set, a 100,000-tab import, opening a new file.
struct LargeSets {
    let size: BenchSize
    let folder: ScratchFolder

    static let largeCount = 10_000

    /// The 10,000-tab figures; `importing()` and `openAndMigrate()` run as groups of their own.
    func run() throws -> [Row] {
        try latencies() + cliSelect() + edits() + reads()
    }

    /// Median wall time (ms) of `body` over `runs` calls, each timed alone.
    private func medianMilliseconds(runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<runs { times.append(try seconds(body) * 1000) }
        return median(times)
    }

    /// `select` and `restore` on 10,000 tabs against 10, calls interleaved.
    /// At synchronous=NORMAL: at FULL the fsync of each commit would drown a
    /// difference in the work per call, and `restore` does not write anyway.
    private func latencies() throws -> [Row] {
        progress("select and restore, 10,000 vs 10 tabs")
        let store = try TabStore(path: folder.file("latency.sqlite"), options: .init(durability: .normal))
        try store.add(Fixture.titles(10), to: "small", creatingSet: true)
        try store.add(Fixture.titles(Self.largeCount), to: "large", creatingSet: true)
        var times: [String: [Double]] = [:]
        let runs = size.pick(4_000, quick: 1_000)
        for run in -100..<runs {
            // The last two tabs, alternately: each select is a change, far from the first tab.
            let offset = run % 2 == 0 ? 2 : 1
            let steps: [(String, () throws -> Void)] = [
                ("select small", { try store.select(.index(10 - offset), in: "small") }),
                ("select large", { try store.select(.index(Self.largeCount - offset), in: "large") }),
                ("restore small", { _ = try store.selectedTab(in: "small") }),
                ("restore large", { _ = try store.selectedTab(in: "large") }),
            ]
            for (name, step) in steps {
                let time = try seconds(step) * 1000
                if run >= 0 { times[name, default: []].append(time) }
            }
        }
        let value = { (name: String) in median(times[name] ?? []) }
        return [
            Row(
                "selectLargeVsSmall", "select (NORMAL), 10,000-tab set vs 10-tab set", unit: .milliseconds,
                tabstore: value("select large"), peer: value("select small"), peerName: "10 tabs", target: .ratio(atMost: 1.5)
            ),
            Row(
                "restoreLargeVsSmall", "restore (selectedTab), 10,000-tab set vs 10-tab set", unit: .milliseconds,
                tabstore: value("restore large"), peer: value("restore small"), peerName: "10 tabs", target: .ratio(atMost: 1.5)
            ),
        ]
    }

    /// `tabstore select` processes on a 10,000-tab set against a 10-tab one: the CLI prints
    /// what changed, not the set, so it reads no more of a large set than of a small one.
    private func cliSelect() throws -> [Row] {
        progress("tabstore select processes, 10,000 vs 10 tabs")
        let binary = executableFolder() + "/tabstore"
        let figure = "tabstore select process, 10,000-tab set vs 10-tab set"
        guard access(binary, X_OK) == 0 else {
            return [.missing("cliSelectLargeVsSmall", figure, unit: .milliseconds, target: .ratio(atMost: 1.5),
                             because: "no tabstore binary next to the bench: run `swift build -c release` first")]
        }
        var commands: [String: [Command]] = [:]
        for (name, count) in [("small", 10), ("large", Self.largeCount)] {
            let path = folder.file("cli-\(name).sqlite")
            _ = try Fixture.store(at: path, tabCount: count)
            // The last two tabs, alternately: each run is a change.
            commands[name] = [count - 2, count - 1].map { Command([binary, "--db", path, "select", Fixture.setName, String($0)]) }
        }
        let stderr = folder.file("cli-select.stderr")
        var times: [String: [Double]] = [:]
        for run in -5..<size.pick(200, quick: 40) {
            for name in ["small", "large"] {
                guard let command = commands[name]?[(run + 10) % 2] else { continue }
                let result = try command.run(stderrPath: stderr)
                guard result.status == 0 else { throw BenchError("tabstore select failed: \(firstLine(ofFile: stderr))") }
                if run >= 0 { times[name, default: []].append(result.milliseconds) }
            }
        }
        return [
            Row(
                "cliSelectLargeVsSmall", figure, unit: .milliseconds,
                tabstore: median(times["large"] ?? []), peer: median(times["small"] ?? []), peerName: "10 tabs", target: .ratio(atMost: 1.5)
            ),
        ]
    }

    /// `move` first-to-last and `remove` of the first tab of a 10,000-tab set, at the
    /// default durability (FULL), as an app would run them.
    private func edits() throws -> [Row] {
        progress("move and remove on 10,000 tabs")
        let store = try Fixture.store(at: folder.file("edits.sqlite"), tabCount: Self.largeCount)
        let runs = size.pick(25, quick: 5)
        // Moving the first tab to the end leaves a set of the same shape: no undo needed.
        let move = try medianMilliseconds(runs: runs) {
            try store.move(.index(0), to: -1, in: Fixture.setName)
        }
        var removals: [Double] = []
        for run in 0..<runs {
            removals.append(try seconds { try store.remove([.index(0)], from: Fixture.setName) } * 1000)
            // Back to 10,000 tabs, untimed; appending shifts nothing.
            try store.add(["Again \(run)"], to: Fixture.setName)
        }
        return [
            Row("moveLarge", "move first-to-last, 10,000-tab set", unit: .milliseconds, tabstore: move,
                ratio: .none, target: .value(atMost: 10)),
            Row("removeLarge", "remove the first tab, 10,000-tab set", unit: .milliseconds, tabstore: median(removals),
                ratio: .none, target: .value(atMost: 10)),
        ]
    }

    /// Reading a whole 10,000-tab set: `list`'s `tabSet(named:)` and `export`.
    private func reads() throws -> [Row] {
        progress("list and export of 10,000 tabs")
        let path = folder.file("reads.sqlite")
        let store = try Fixture.store(at: path, tabCount: Self.largeCount)
        let runs = size.pick(20, quick: 5)
        _ = try store.export([Fixture.setName])  // warm: statements prepared, pages cached
        // A store keeps the last sets it read: it reads them again only when they changed.
        let list = try medianMilliseconds(runs: runs) { _ = try store.tabSet(named: Fixture.setName) }
        var firstReads: [Double] = []
        for _ in 0..<runs {
            let fresh = try TabStore(path: path)
            firstReads.append(try seconds { _ = try fresh.tabSet(named: Fixture.setName) } * 1000)
        }
        let export = try medianMilliseconds(runs: runs) { _ = try store.export([Fixture.setName]) }
        // An app writing the document with the coder it uses also pays for the encoding.
        let encoder = JSONEncoder()
        let exportJSON = try medianMilliseconds(runs: runs) { _ = try encoder.encode(store.export([Fixture.setName])) }
        // `info`'s check of every set's rules, on a database of 10,000 sets.
        let manySets = try TabStore(path: folder.file("many-sets.sqlite"))
        try manySets.importDocument(TabStoreDocument(sets: (0..<Self.largeCount).map { .init(name: "set \($0)", selectedIndex: 0, tabs: ["a", "b", "c"]) }))
        let info = try medianMilliseconds(runs: runs) { _ = try manySets.info() }
        return [
            Row("infoManySets", "info (integrity_check and the rule check), 10,000 sets", unit: .milliseconds, tabstore: info,
                ratio: .none, target: .value(atMost: 200)),
            Row("listLarge", "list (tabSet(named:)), 10,000-tab set, read before by the store", unit: .milliseconds, tabstore: list,
                ratio: .none, target: .value(atMost: 50)),
            Row("listLargeFirst", "list (tabSet(named:)), 10,000-tab set, first read by a store", unit: .milliseconds,
                tabstore: median(firstReads), ratio: .none, target: .value(atMost: 50)),
            Row("exportLarge", "export([name]), 10,000-tab set", unit: .milliseconds, tabstore: export,
                ratio: .none, target: .value(atMost: 50)),
            Row("exportJSONLarge", "export([name]) + JSONEncoder, 10,000-tab set", unit: .milliseconds, tabstore: exportJSON,
                ratio: .none, target: .value(atMost: 50)),
        ]
    }

    /// `importDocument` of 100 sets of 1,000 tabs (100,000 tabs) into a new file, against
    /// raw prepared INSERTs of the same rows in one transaction. Both at FULL; one
    /// transaction means one fsync, so the ratio is the work per row.
    func importing() throws -> [Row] {
        progress("import of 100 sets x 1,000 tabs, Store vs raw SQLite")
        // A document with ids, as an export writes it: both sides store the same ids.
        let sets = (0..<100).map { index in
            TabStoreDocument.Entry(
                name: "set \(index)", selectedIndex: index % 1_000, tabs: Fixture.titles(1_000), ids: Fixture.ids(1_000).compactMap(TabID.init)
            )
        }
        let document = TabStoreDocument(sets: sets)
        let pinned = sets.map { entry in
            (PinnedText(entry.name), entry.tabs.map(PinnedText.init), (entry.ids ?? []).map { PinnedText($0.uuidString) }, entry.selectedIndex ?? 0)
        }
        var storeTimes: [Double] = []
        var rawTimes: [Double] = []
        for run in 0..<size.pick(7, quick: 1) {
            let storeRun = {
                let store = try TabStore(path: folder.file("import-store.sqlite"))
                storeTimes.append(try seconds { try store.importDocument(document) } * 1000)
            }
            let rawRun = {
                let raw = try RawTabStore(path: folder.file("import-raw.sqlite"), synchronous: "FULL")
                rawTimes.append(try seconds { try raw.insertSets(pinned) } * 1000)
            }
            // Alternate which goes first, so neither always follows the other's writes.
            if run % 2 == 0 { try storeRun(); try rawRun() } else { try rawRun(); try storeRun() }
        }
        return [Row(
            "importVsRaw", "import 100,000 tabs (100 sets x 1,000): Store vs raw INSERTs", unit: .milliseconds,
            tabstore: median(storeTimes), peer: median(rawTimes), peerName: "raw", ratio: .peerOverTabstore,
            target: .ratio(atLeast: 0.7)
        )]
    }

    /// Opening a file that does not exist yet: create, WAL, every migration. The raw
    /// peer runs the same pragmas and migration SQL without Store's checks.
    func openAndMigrate() throws -> [Row] {
        progress("open + migrate a new database")
        var storeTimes: [Double] = []
        var rawTimes: [Double] = []
        for run in 0..<size.pick(30, quick: 10) {
            let storePath = folder.file("open-store-\(run).sqlite")
            var store: TabStore?
            storeTimes.append(try seconds { store = try TabStore(path: storePath) } * 1000)
            store = nil  // closing is not part of the figure
            let rawPath = folder.file("open-raw-\(run).sqlite")
            var raw: RawConnection?
            rawTimes.append(try seconds {
                raw = try RawConnection(path: rawPath, synchronous: "FULL")
                try raw?.migrate()
            } * 1000)
            raw = nil
            _ = (store, raw)
        }
        return [Row(
            "openAndMigrate", "open + migrate a new database, in process", unit: .milliseconds,
            tabstore: median(storeTimes), peer: median(rawTimes), peerName: "raw", target: .value(atMost: 5)
        )]
    }
}
