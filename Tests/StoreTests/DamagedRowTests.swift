import Foundation
import Testing
import TabStoreTestSupport
@testable import TabStoreKit
@testable import TabStorePostgres

/// The fixture of `DamagedRows` on one backend, damaged as another program would leave it:
/// on a file with plain SQL, on a server with SQL from a session whose triggers do not fire
/// (`session_replication_role = replica`), as a client that skips tabstore's checks.
struct DamagedDatabase {
    let backend: StoreBackend
    /// A file's path or a server database's URL.
    let location: String
    /// Keeps a file's folder until the database is no longer used.
    private let folder: TemporaryFolder

    init(_ backend: StoreBackend, damage sql: String) throws {
        self.backend = backend
        folder = TemporaryFolder()
        location = try backend.makeDatabase(in: folder).location
        let store = try open()
        try store.add(["a", "b", "c", "d", "e"], to: "s", creatingSet: true)
        try store.select(.title("b"), in: "s")
        try store.remove([.title("e")], from: "s")
        try store.add(["x", "y"], to: "o", creatingSet: true)
        #expect(try store.info().consistencyCheck == "ok")
        #expect(try query("SELECT base, revision FROM tab_set WHERE name = 's'") == "0|3\n")
        #expect(try query("SELECT position FROM tab WHERE set_id = (SELECT id FROM tab_set WHERE name = 's') ORDER BY position") == "0\n1\n2\n3\n")
        try execute(sql)
    }

    func open() throws -> TabStore {
        switch backend {
        case .sqlite: try TabStore(path: location)
        case .postgres: try TabStore(postgresURL: location)
        }
    }

    private var serverDatabase: String { String(location.split(separator: "/").last ?? "") }

    /// Runs `sql` around tabstore.
    func execute(_ sql: String) throws {
        switch backend {
        case .sqlite:
            _ = try SQLiteShell.run(location, sql)
        case .postgres:
            try PostgresServer.shared().psql(serverDatabase, "SET session_replication_role = replica; " + sql)
        }
    }

    /// The answer to `sql`, one line per row, columns joined by `|` (NULL as nothing), from
    /// each backend's own shell.
    func query(_ sql: String) throws -> String {
        switch backend {
        case .sqlite:
            return try SQLiteShell.run(location, sql, options: ["-readonly"])
        case .postgres:
            return try PostgresServer.shared().psql(serverDatabase, sql)
        }
    }

    /// Every stored row of every table, in a fixed order: what a refused call must leave.
    func dump() throws -> String {
        try ["tab_set", "tab", "closed_tab", "change", "name_revision"].map { table in
            try query("SELECT * FROM \(table) ORDER BY 1")
        }.joined(separator: "--\n")
    }
}

/// One call of the library on set "s", named for a test's output.
struct StoreCall: Sendable, CustomTestStringConvertible {
    let name: String
    let run: @Sendable (TabStore) throws(TabStoreError) -> Void

    var testDescription: String { name }

    /// Every write that reads set "s": each refuses a damaged one. (Rename and removal of
    /// the set come last: a sound set is gone after them.)
    static let writes: [StoreCall] = [
        StoreCall(name: "select by index") { store throws(TabStoreError) in _ = try store.select(.index(2), in: "s") },
        StoreCall(name: "select by title") { store throws(TabStoreError) in _ = try store.select(.title("c"), in: "s") },
        StoreCall(name: "select the selected") { store throws(TabStoreError) in _ = try store.select(.title("b"), in: "s") },
        StoreCall(name: "select from the end") { store throws(TabStoreError) in _ = try store.select(.index(-1), in: "s") },
        StoreCall(name: "select without the set back (the CLI's)") { store throws(TabStoreError) in
            _ = try store.selectOnly(.userInput("3", asIndex: false), in: "s")
        },
        StoreCall(name: "add at 1") { store throws(TabStoreError) in _ = try store.add(["n"], to: "s", at: 1) },
        StoreCall(name: "add at the end") { store throws(TabStoreError) in _ = try store.add(["n"], to: "s") },
        StoreCall(name: "add at 0") { store throws(TabStoreError) in _ = try store.add(["n"], to: "s", at: 0) },
        StoreCall(name: "ensure the set") { store throws(TabStoreError) in _ = try store.ensureSet("s", defaultTabs: [NewTab("n")]) },
        StoreCall(name: "remove the first") { store throws(TabStoreError) in _ = try store.remove([.index(0)], from: "s") },
        StoreCall(name: "remove the selected") { store throws(TabStoreError) in _ = try store.remove([.title("b")], from: "s") },
        StoreCall(name: "remove the last") { store throws(TabStoreError) in _ = try store.remove([.title("d")], from: "s") },
        StoreCall(name: "move first to last") { store throws(TabStoreError) in _ = try store.move(.index(0), to: -1, in: "s") },
        StoreCall(name: "move last to first") { store throws(TabStoreError) in _ = try store.move(.title("d"), to: 0, in: "s") },
        StoreCall(name: "move offsets") { store throws(TabStoreError) in _ = try store.move(fromOffsets: [0, 2], toOffset: 4, in: "s") },
        StoreCall(name: "rename a tab") { store throws(TabStoreError) in _ = try store.rename(.index(0), to: "z", in: "s") },
        StoreCall(name: "set a payload") { store throws(TabStoreError) in _ = try store.setPayload(["k": "v"], for: .index(1), in: "s") },
        StoreCall(name: "replace the tabs") { store throws(TabStoreError) in _ = try store.replaceTabs(of: "s", with: ["p", "b"]) },
        StoreCall(name: "reopen") { store throws(TabStoreError) in _ = try store.reopen(in: "s") },
        StoreCall(name: "import over it") { store throws(TabStoreError) in
            _ = try store.importDocument(TabStoreDocument(sets: [.init(name: "s", selectedIndex: 1, tabs: ["p", "q"])]), replace: true)
        },
        StoreCall(name: "rename the set") { store throws(TabStoreError) in _ = try store.renameSet("s", to: "q") },
        StoreCall(name: "remove the set") { store throws(TabStoreError) in try store.removeSet("s") },
    ]

    /// The reads of set "s" that report indices: each refuses a damaged one.
    static let reads: [StoreCall] = [
        StoreCall(name: "the set") { store throws(TabStoreError) in _ = try store.tabSet(named: "s") },
        StoreCall(name: "the selected tab") { store throws(TabStoreError) in _ = try store.selectedTab(in: "s") },
        StoreCall(name: "export") { store throws(TabStoreError) in _ = try store.export(["s"]) },
    ]
}

/// Item 4 and 6 of issue 28: rows that break the rules, and integers no tabstore writes, in
/// a database that is otherwise valid. No call traps; every write and read of a damaged
/// set is `damagedSet` naming it and what `info` says first of it, and a refused write
/// leaves every row as it was; no read reports an index outside the set; `info` finds it.
@Suite struct DamagedRowTests {
    @Test func theGeneratorsLimitIsTheRulesLimit() {
        #expect(DamagedRows.limit == RuleCheck.storedLimit)
    }

    static let cases: [(StoreBackend, RowDamage)] = StoreBackend.allCases.flatMap { backend in
        DamagedRows.all.filter { backend == .sqlite || $0.onServer }.map { (backend, $0) }
    }

    /// The error a damaged set "s" must give.
    private func isDamaged(_ error: TabStoreError?, saying damage: String) -> Bool {
        guard case let .damagedSet(set, found)? = error?.reason else { return false }
        return set == "s" && found.description == damage
    }

    /// The indices every read reports lie in the set: the list's, and the selected tab's.
    private func expectIndicesInside(_ store: TabStore, _ damage: RowDamage, _ comment: String) throws {
        for summary in try store.tabSets() {
            #expect(summary.tabCount >= 0, "\(damage) \(comment)")
            if let index = summary.selectedIndex { #expect((0..<summary.tabCount).contains(index), "\(damage) \(comment)") }
        }
        if let set = try? store.tabSet(named: "s"), let selected = try? store.selectedTab(in: "s") {
            #expect(set.tabs.indices.contains(selected.index) && set.tabs[selected.index].id == selected.tab.id, "\(damage) \(comment)")
        }
    }

    @Test(arguments: cases.filter { $0.1.damage != nil })
    func aDamagedSetRefusesEveryWriteAndReadAndKeepsItsRows(backend: StoreBackend, damage: RowDamage) throws {
        let expected = try #require(damage.damage)
        let database = try DamagedDatabase(backend, damage: damage.sql)
        let before = try database.dump()
        let store = try database.open()
        for call in StoreCall.writes + StoreCall.reads {
            let error = thrownError { () throws(TabStoreError) in try call.run(store) }
            #expect(isDamaged(error, saying: expected), "\(call.name): \(String(describing: error))")
            #expect(try database.dump() == before, "\(call.name) wrote")
        }
        // A fresh store (no copy held, as each CLI process) refuses alike.
        let fresh = try database.open()
        #expect(isDamaged(thrownError { () throws(TabStoreError) in try fresh.select(.index(0), in: "s") }, saying: expected))
        try expectIndicesInside(store, damage, "in the list")
        #expect(try store.tabSet(named: "o").tabs.map(\.title) == ["x", "y"])
        #expect(try store.info().ruleProblems.contains("set \"s\": \(expected)"))
        #expect(try database.dump() == before)
    }

    /// A read of the whole set counts its shape from the tab rows it reads: that shape is
    /// the one the set's own shape read gives, and those tabs the ones a write's snapshot
    /// of all its tabs reads, for every damage and every edge value, sound or not.
    @Test(arguments: cases)
    func theShapeCountedFromATabReadIsTheSetsShape(backend: StoreBackend, damage: RowDamage) throws {
        let database = try DamagedDatabase(backend, damage: damage.sql)
        let store = try database.open()
        let (counted, alone, tabs) = try store.backend.read { records throws(TabStoreError) in
            try records.readTransaction { () throws(TabStoreError) in
                let record = try records.requireSet(named: "s")
                let read = try records.tabsWithRowsSummary(of: record)
                return (read.shape, try records.rowsSummary(of: record), read.tabs)
            }
        }
        var request = SnapshotRequest(setName: "s")
        request.allTabs = true
        var snapshot: SetSnapshot?
        _ = try store.backend.write(progress: nil) { reader throws(TabStoreError) in
            snapshot = try reader.snapshot(request)
            return WritePlan()
        }
        #expect(counted == alone, "\(damage)")
        #expect(tabs == snapshot?.tabs, "\(damage)")
        #expect(counted.tabCount == tabs.count, "\(damage)")
    }

    /// On a server, the writes whose arithmetic differs (each a database of its own costs a
    /// migration there): a select, adds at either end, removals, moves, reopening, the set's
    /// rename and removal.
    static let serverEdgeWrites: Set<String> = [
        "select by index", "add at the end", "add at 0", "remove the first", "move first to last", "reopen", "rename the set", "remove the set",
    ]

    static let soundCases = cases.filter { $0.1.damage == nil }.flatMap { backend, damage in
        StoreCall.writes.filter { backend == .sqlite || serverEdgeWrites.contains($0.name) }.map { (backend, damage, $0) }
    }

    /// Extreme values still inside the range: each write goes ahead (or refuses for a
    /// reason of the request), on a database of its own; nothing traps, and the set read
    /// after it reports only indices inside it.
    @Test(arguments: soundCases)
    func aSetAtTheEdgeOfTheRangeTakesEveryWrite(backend: StoreBackend, damage: RowDamage, call: StoreCall) throws {
        let database = try DamagedDatabase(backend, damage: damage.sql)
        let store = try database.open()
        let error = thrownError { () throws(TabStoreError) in try call.run(store) }
        #expect(error == nil || error?.isDatabaseProblem == false, "\(String(describing: error))")
        try expectIndicesInside(store, damage, call.name)
        if error == nil, (try? store.tabSet(named: "s")) != nil {
            #expect(try store.selectedTab(in: "s").index >= 0)
        }
    }

    static let nameRevisionCases: [(StoreBackend, Int)] = StoreBackend.allCases.flatMap { backend in DamagedRows.extremes.map { (backend, $0) } }

    /// A revision a name was left at, which a set that takes the name goes on from: out of
    /// range, the set the write would make is damaged before it is made.
    @Test(arguments: nameRevisionCases)
    func aNameLeftAtARevisionOutOfRangeIsNotTaken(backend: StoreBackend, revision: Int) throws {
        let (sql, damage) = DamagedRows.nameRevision(revision)
        let database = try DamagedDatabase(backend, damage: sql)
        let before = try database.dump()
        let calls: [(String, (TabStore) throws(TabStoreError) -> Void)] = [
            ("add creating it", { store throws(TabStoreError) in _ = try store.add(["n"], to: "gone", creatingSet: true) }),
            ("create it", { store throws(TabStoreError) in _ = try store.createSet("gone") }),
            ("rename a set to it", { store throws(TabStoreError) in _ = try store.renameSet("s", to: "gone") }),
            ("import it", { store throws(TabStoreError) in _ = try store.importDocument(TabStoreDocument(sets: [.init(name: "gone", selectedIndex: 0, tabs: ["n"])])) }),
        ]
        for (name, call) in calls {
            // A write raises the name's revision: each call on a database of its own.
            let database = damage == nil ? try DamagedDatabase(backend, damage: sql) : database
            let store = try database.open()
            let error = thrownError { () throws(TabStoreError) in try call(store) }
            if let damage {
                guard case let .damagedSet(set, found)? = error?.reason else {
                    Issue.record("\(name): \(String(describing: error))")
                    continue
                }
                #expect(set == "gone" && found.description == damage, "\(name)")
                #expect(try database.dump() == before, "\(name) wrote")
                #expect(try store.info().ruleProblems == ["set \"gone\": \(damage)"], "\(name)")
            } else {
                #expect(error == nil, "\(name): \(String(describing: error))")
            }
        }
    }

    /// What arithmetic on stored values could overflow is refused by the check itself,
    /// whatever the shape: a shape at every extreme is judged without a trap.
    @Test(arguments: DamagedRows.extremes)
    func theRuleCheckJudgesEveryExtremeWithoutATrap(value: Int) {
        let shape = SetRowsSummary(
            name: "s", base: value, revision: value, tabCount: Int.max, distinctPositions: value, lowestPosition: value,
            highestPosition: value, selection: .ownTab, journaledRevision: value, tabsWithoutValidID: value,
            lowestClosedPosition: value, highestClosedPosition: value
        )
        #expect(!RuleCheck.damage(of: shape).isEmpty)
        #expect(thrownError { () throws(TabStoreError) in try shape.requireSound() } != nil)
    }

    /// A set an app holds can carry a revision no store gives: a preview of it refuses
    /// rather than work out the next revision.
    @Test func aPreviewOfASetAtTheLastRevisionRefusesWithoutATrap() {
        let set = TabSet(name: "s", tabs: [Tab(title: "a", isSelected: true), Tab(title: "b", isSelected: false)], revision: .max)
        #expect(SelectRule(.index(1), in: "s").preview(on: set) == nil)
        let sound = TabSet(name: "s", tabs: set.tabs, revision: 7)
        #expect(SelectRule(.index(1), in: "s").preview(on: sound).map(picture) == ["a", "*b"])
    }
}

/// A store's copy of a set at the revision read stands for its rows (see `SetCache`), so a
/// write of a set the store holds does not count its rows again; what the copy cannot stand
/// for is read and checked every time.
@Suite struct HeldCopyDamageTests {
    /// A store holding set "s" (from its last write), and damage done beside it.
    private func heldAndDamaged(_ sql: String) throws -> (store: TabStore, database: DamagedDatabase) {
        let database = try DamagedDatabase(.sqlite, damage: "SELECT 1")
        let store = try database.open()
        _ = try store.select(.title("c"), in: "s")
        try database.execute(sql)
        return (store, database)
    }

    static let damages: [(sql: String, damage: SetDamage)] = [
        // The revision kept: the base, the selected row and removed tabs are read anyway.
        ("UPDATE tab_set SET base = \(Int.max) WHERE name = 's'", .baseOutOfRange(.max)),
        ("UPDATE tab_set SET base = \(Int.min) WHERE name = 's'", .baseOutOfRange(.min)),
        ("UPDATE tab_set SET selected_tab_id = (SELECT id FROM tab WHERE title = 'x') WHERE name = 's'", .selectionOfAnotherSet),
        ("UPDATE closed_tab SET position = \(Int.min)", .removedTabPositionOutOfRange(.min)),
        // A revision that moved on: the copy no longer stands for the rows.
        ("UPDATE tab SET position = 9 WHERE title = 'd'; UPDATE tab_set SET revision = revision + 1 WHERE name = 's'", .positionsNotContiguous),
        ("UPDATE tab_set SET revision = \(Int.max) WHERE name = 's'", .revisionOutOfRange(.max)),
    ]

    @Test(arguments: damages)
    func aWriteOfAHeldSetChecksWhatTheCopyCannotStandFor(sql: String, damage: SetDamage) throws {
        let calls: [StoreCall] = StoreCall.writes.filter { ["select by index", "add at the end", "move first to last", "remove the first", "reopen"].contains($0.name) }
        for call in calls {
            let (store, database) = try heldAndDamaged(sql)
            let before = try database.dump()
            #expect(thrownError { () throws(TabStoreError) in try call.run(store) } == TabStoreError(.damagedSet(set: "s", damage: damage)), "\(call.name)")
            #expect(try database.dump() == before, "\(call.name) wrote")
            #expect(thrownError { () throws(TabStoreError) in try store.selectedTab(in: "s") } == TabStoreError(.damagedSet(set: "s", damage: damage)))
        }
    }

    /// A tab moved in the file with the revision kept: the rows a write reads no longer fit
    /// the copy (no tab at an index it has, a tab at an index it has not), so the copy
    /// stands for nothing and the rows are counted.
    @Test(arguments: [
        StoreCall(name: "select the moved tab's index") { store throws(TabStoreError) in _ = try store.select(.index(3), in: "s") },
        StoreCall(name: "move the moved tab") { store throws(TabStoreError) in _ = try store.move(.title("d"), to: 0, in: "s") },
        StoreCall(name: "remove the moved tab") { store throws(TabStoreError) in _ = try store.remove([.title("d")], from: "s") },
    ])
    func aCopyThatDoesNotFitTheRowsStandsForNothing(call: StoreCall) throws {
        let (store, database) = try heldAndDamaged("UPDATE tab SET position = 9 WHERE title = 'd'")
        let before = try database.dump()
        #expect(thrownError { () throws(TabStoreError) in try call.run(store) } == TabStoreError(.damagedSet(set: "s", damage: .positionsNotContiguous)))
        #expect(try database.dump() == before)
    }
}
