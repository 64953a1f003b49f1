import Dispatch
import Synchronization
import Testing
import TabStoreTestSupport
@testable import TabStoreKit

/// What an app runs at launch: a set made once with its own tabs, each with its own data,
/// in one write; and the data read back as the app's own type.
@Suite struct SeedingTests {
    struct Route: Codable, Equatable {
        enum Icon: String, Codable { case house, star }
        var path: String
        var icon: Icon
        var badge: Int?
        var pinned: Bool
    }

    static let tabs = [
        NewTab("Home", payload: ["route": "/home", "icon": "house"]),
        NewTab("Menu", payload: ["route": "/menu"]),
        NewTab("Reviews"),
    ]

    @Test(arguments: StoreBackend.allCases)
    func tabsAreAddedWithAPayloadEachInOneChange(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        let edit = try store.add(Self.tabs, to: "main", creatingSet: true)
        #expect(edit.tabs.map(\.payload) == [["route": "/home", "icon": "house"], ["route": "/menu"], [:]])
        #expect(picture(edit) == ["*Home", "Menu", "Reviews"])
        #expect(edit.event == .added(titles: ["Home", "Menu", "Reviews"], index: 0))
        #expect(try store.tabSet(named: "main") == edit.set)
        #expect(try store.history(of: "main").map(\.revision) == [1])
    }

    @Test(arguments: StoreBackend.allCases)
    func ensureSetMakesTheSetOnceAndLeavesItAfterwards(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        let first = try store.ensureSet("main", defaultTabs: Self.tabs)
        #expect(first.event == .added(titles: ["Home", "Menu", "Reviews"], index: 0))
        #expect(picture(first) == ["*Home", "Menu", "Reviews"])
        try store.select("Reviews", in: "main")
        try store.remove(["Menu"], from: "main")
        // A later launch: the set as the user left it, nothing written.
        let again = try store.ensureSet("main", defaultTabs: Self.tabs)
        #expect(again.event == nil)
        #expect(picture(again) == ["Home", "*Reviews"])
        #expect(again.revision == 3)
        #expect(try store.history(of: "main").count == 3)
    }

    /// Eight launches at once make one set, with one journal row.
    @Test(arguments: StoreBackend.allCases)
    func ensureSetFromManyStoresAtOnceMakesOneSet(backend: StoreBackend) throws {
        let folder = TemporaryFolder()
        let database = try backend.makeDatabase(in: folder)
        let stores = try (0..<8).map { _ in try database.open() }
        let made = Mutex(0)
        let failures = Mutex<[TabStoreError]>([])
        DispatchQueueConcurrent.run(stores.count) { number in
            do throws(TabStoreError) {
                if try stores[number].ensureSet("main", defaultTabs: Self.tabs).event != nil { made.withLock { $0 += 1 } }
            } catch {
                failures.withLock { $0.append(error) }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(made.withLock { $0 } == 1)
        #expect(picture(try stores[0].tabSet(named: "main")) == ["*Home", "Menu", "Reviews"])
        #expect(try stores[0].history(of: "main").count == 1)
    }

    /// At launch the set is usually there: it is read, not written, so another process
    /// holding the write lock delays nothing (the call waited out the busy timeout and
    /// threw `.busy`), and a read-only database serves it.
    @Test func ensureSetOfASetThatExistsTakesNoWriteLock() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        let options = TabStore.Options(busyTimeout: .seconds(2))
        let store = try TabStore(path: path, options: options)
        try store.ensureSet("main", defaultTabs: Self.tabs)
        let lock = try WriteLockHolder(path: path)
        let again = try store.ensureSet("main", defaultTabs: Self.tabs)
        #expect(again.event == nil)
        #expect(picture(again) == ["*Home", "Menu", "Reviews"])
        #expect(lock.isHeld)
        try lock.release()
    }

    @Test func ensureSetRefusesBadDefaultsAndWritesNothing() throws {
        let store = try TabStore.inMemory()
        #expect(thrownError { () throws(TabStoreError) in try store.ensureSet("main", defaultTabs: [NewTab("a"), NewTab("a")]) }
            == TabStoreError(.repeatedTitle(title: "a")))
        #expect(thrownError { () throws(TabStoreError) in try store.ensureSet("", defaultTabs: []) }
            == TabStoreError(.invalidSetName(name: "", problem: .empty)))
        #expect(try store.tabSets() == [])
    }

    @Test func aTypedPayloadIsStoredOneKeyPerPropertyAndReadBack() throws {
        let store = try TabStore.inMemory()
        let route = Route(path: "/home", icon: .house, badge: 3, pinned: true)
        let edit = try store.add([try NewTab("Home", payload: route), NewTab("Plain")], to: "main", creatingSet: true)
        #expect(edit.tabs[0].payload == ["path": "/home", "icon": "house", "badge": "3", "pinned": "true"])
        #expect(try store.tabSet(named: "main").tabs[0].payload(as: Route.self) == route)
        // An absent optional is no key; setting it again replaces the whole payload.
        let noBadge = Route(path: "/home", icon: .star, badge: nil, pinned: false)
        let changed = try store.setPayload(noBadge, for: "Home", in: "main")
        #expect(changed.tabs[0].payload == ["path": "/home", "icon": "star", "pinned": "false"])
        #expect(try changed.tabs[0].payload(as: Route.self) == noBadge)
    }

    struct Nested: Codable { var route: Route }
    struct Listed: Codable { var paths: [String] }

    @Test func aPayloadThatIsNotFlatOrDoesNotFitIsRefused() throws {
        let route = Route(path: "/", icon: .house, badge: nil, pinned: false)
        #expect(thrownError { () throws(TabStoreError) in _ = try NewTab("a", payload: Nested(route: route)) }
            == TabStoreError(.invalidPayload(reason: #"property "route" is not a flat value (text, number or boolean)"#)))
        #expect(thrownError { () throws(TabStoreError) in _ = try NewTab("a", payload: Listed(paths: ["/"])) }
            == TabStoreError(.invalidPayload(reason: #"property "paths" is not a flat value (text, number or boolean)"#)))
        let plain = Tab(title: "a", isSelected: false, payload: ["path": "/", "icon": "moon", "pinned": "yes"])
        #expect(thrownError { () throws(TabStoreError) in _ = try plain.payload(as: Route.self) }
            == TabStoreError(.invalidPayload(reason: #"key "icon" holds "moon", not a value of type Icon"#)))
        let missing = Tab(title: "a", isSelected: false, payload: ["icon": "house", "pinned": "true"])
        #expect(thrownError { () throws(TabStoreError) in _ = try missing.payload(as: Route.self) }
            == TabStoreError(.invalidPayload(reason: #"the payload has no key "path""#)))
        let wrongType = Tab(title: "a", isSelected: false, payload: ["path": "/", "icon": "house", "pinned": "yes"])
        #expect(thrownError { () throws(TabStoreError) in _ = try wrongType.payload(as: Route.self) }
            == TabStoreError(.invalidPayload(reason: #"key "pinned" holds "yes", not a value of type Bool"#)))
        struct Big: Codable { var text: String }
        #expect(thrownError { () throws(TabStoreError) in _ = try NewTab("a", payload: Big(text: String(repeating: "x", count: 5000))) }
            == TabStoreError(.payloadTooLarge(bytes: 5004, limit: TabStore.payloadLimit)))
    }
}

/// Runs `body(number)` on `count` threads at once and waits for them all.
enum DispatchQueueConcurrent {
    static func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        DispatchQueue.concurrentPerform(iterations: count, execute: body)
    }
}
