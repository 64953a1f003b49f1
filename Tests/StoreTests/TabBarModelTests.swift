import Observation
import TabStoreSQLite
import TabStoreTestSupport
import Testing
@testable import TabStoreKit

/// The documents' tab bar as an `@Observable` model: the stored set from the first frame,
/// edits shown at once and then confirmed or taken back, re-taps as reselections, several
/// bars in sync.
@MainActor @Suite struct TabBarModelTests {
    let folder = TemporaryFolder()
    /// A lock held by another process is waited for long enough that the test releases it.
    let options = TabStore.Options(durability: .normal, busyTimeout: .seconds(10))

    /// A file store holding "main": Home (selected), All menu, Reviews.
    private func makeStore(options: TabStore.Options? = nil) throws -> TabStore {
        let store = try TabStore(path: folder.file(), options: options ?? self.options)
        try store.add(["Home", "All menu", "Reviews"], to: "main", creatingSet: true)
        return store
    }

    // MARK: The first value

    @Test func theBarShowsTheStoredSetBeforeItsFirstFrame() throws {
        let store = try makeStore()
        try store.select(2, in: "main")
        // No await between making the bar and reading it: nothing could have been delivered.
        let bar = TabBarModel(store: store, setName: "main")
        #expect(bar.tabs.map(\.title) == ["Home", "All menu", "Reviews"])
        #expect(bar.selectedIndex == 2 && bar.lastSelectedIndex == 2 && bar.selectedTab?.title == "Reviews")
        #expect(bar.revision == 2 && bar.observationError == nil && !bar.hasPendingEdits)
    }

    @Test func aSetThatDoesNotExistYetIsAnEmptyBarWhoseLastSelectedIndexIsZero() throws {
        let store = try makeStore()
        let bar = TabBarModel(store: store, setName: "elsewhere")
        #expect(bar.tabs.isEmpty && bar.selectedIndex == nil && bar.lastSelectedIndex == 0 && bar.revision == 0)
        #expect(bar.observationError == nil)
    }

    /// A tap by index on a bar whose set does not exist names that, not an index.
    @Test func anEditByIndexOfASetThatDoesNotExistSaysSo() async throws {
        let store = try makeStore()
        let bar = TabBarModel(store: store, setName: "ghost")
        let ghost = TabStoreError(.setNotFound(set: "ghost"))
        await #expect(throws: ghost) { try await bar.select(0).result }
        await #expect(throws: ghost) { try await bar.close(atOffsets: [0]).result }
        await #expect(throws: ghost) { try await bar.move(fromOffsets: [0], toOffset: 0).result }
        await #expect(throws: ghost) { try await bar.move(fromOffsets: [], toOffset: 1).result }
        #expect(bar.editError == TabStoreError(.setNotFound(set: "ghost")) && bar.pendingEdits.isEmpty)
        // A set with no tabs exists: there, the index is what is wrong.
        try await store.write { try $0.createSet("empty") }
        let empty = TabBarModel(store: store, setName: "empty")
        await #expect(throws: TabStoreError(.indexOutOfRange(index: 0, count: 0, set: "empty"))) { try await empty.select(0).result }
        await #expect(throws: TabStoreError(.offsetOutOfRange(offset: 0, count: 0, set: "empty"))) { try await empty.close(atOffsets: [0]).result }
        #expect(empty.editError?.description == #"offset 0 is out of range: set "empty" has no tabs"#)
        await #expect(throws: TabStoreError(.insertionOffsetOutOfRange(offset: 1, count: 0, set: "empty"))) {
            try await empty.move(fromOffsets: [], toOffset: 1).result
        }
    }

    /// A name no set can have is refused by both ways of making a bar; nothing is stored.
    @Test func aBarForANameNoSetCanHaveIsRefused() async throws {
        let store = try makeStore()
        for name in ["", "   ", "a\u{7}b"] {
            let bar = TabBarModel(store: store, setName: name)
            #expect(bar.observationError?.code == .invalidSetName && bar.tabs.isEmpty)
            await #expect(throws: TabStoreError.self) { try await TabBarModel.load(store: store, setName: name) }
            do {
                _ = try await TabBarModel.load(store: store, setName: name)
            } catch {
                #expect(error.code == .invalidSetName && error == bar.observationError)
            }
        }
        #expect(try await store.read { try $0.tabSets() }.map(\.name) == ["main"])
    }

    /// A set removed elsewhere leaves an empty bar at revision 0, as one never made.
    @Test func aRemovedSetLeavesAnEmptyBarAtRevisionZero() async throws {
        let store = try makeStore()
        let bar = TabBarModel(store: store, setName: "main")
        #expect(bar.revision == 1)
        let other = try TabStore(path: store.location, options: options)
        try await other.write { try $0.removeSet("main") }
        // The tabs and the revision change in one refresh.
        await waitUntil({ bar.tabs.isEmpty }, { $0 })
        #expect(bar.selectedIndex == nil && bar.lastSelectedIndex == 0 && bar.revision == 0)
    }

    @Test func loadAwaitsTheFirstValueAndThrowsWhenItCannotBeRead() async throws {
        let store = try makeStore()
        do {
            let bar = try await TabBarModel.load(store: store, setName: "main")
            #expect(shown(bar) == ["*Home", "All menu", "Reviews"])
        }
        // No model of the set is left: the next one reads the set itself.
        try dropTable("tab", at: store.location)
        await #expect(throws: TabStoreError.self) { try await TabBarModel.load(store: store, setName: "main") }
        let broken = TabBarModel(store: store, setName: "main")
        #expect(broken.tabs.isEmpty)
        guard case let .sqlite(_, _, message, _)? = broken.observationError?.reason else {
            Issue.record("expected an SQLite error, got \(String(describing: broken.observationError))")
            return
        }
        #expect(message == "no such table: tab")
    }

    // MARK: Showing an edit at once

    @Test(.timeLimit(.minutes(5)))
    func aTapShowsAtOnceWhileAnotherProcessHoldsTheLockAndIsConfirmedWhenTheWriteEnds() async throws {
        let store = try makeStore()
        let bar = TabBarModel(store: store, setName: "main")
        let lock = try WriteLockHolder(path: store.location)
        let pending = bar.select(bar.tabs[2].id)
        #expect(shown(bar) == ["Home", "All menu", "*Reviews"])
        #expect(bar.hasPendingEdits && bar.revision == 1)
        // Waiting for the lock: nothing is stored yet, and the bar keeps showing the tap.
        try await waitFor("the tap's write to wait for the lock") { lockWaitsBegun(store) > 0 }
        #expect(picture(try await store.read { try $0.tabSet(named: "main") }) == ["*Home", "All menu", "Reviews"])
        #expect(shown(bar) == ["Home", "All menu", "*Reviews"] && lock.isHeld)
        try lock.release()
        let change = try await pending.result
        #expect(change.updates.map(\.index) == [0, 2] && change.revision == 2)
        #expect(shown(bar) == ["Home", "All menu", "*Reviews"])
        #expect(!bar.hasPendingEdits && bar.revision == 2 && bar.editError == nil)
    }

    @Test(.timeLimit(.minutes(5)))
    func aTapRefusedAfterTheBusyTimeoutIsKeptAndWrittenOnceTheLockIsGone() async throws {
        let store = try makeStore(options: TabStore.Options(durability: .normal, busyTimeout: .milliseconds(200)))
        let bar = TabBarModel(store: store, setName: "main")
        let lock = try WriteLockHolder(path: store.location)
        let pending = bar.select(1)
        #expect(shown(bar) == ["Home", "*All menu", "Reviews"])
        // The busy timeout passes: the tap is still shown, and marked as waiting for the lock.
        await waitUntil({ bar.pendingEdits.first?.isWaitingForLock }) { $0 == true }
        #expect(shown(bar) == ["Home", "*All menu", "Reviews"] && bar.editError == nil)
        #expect(bar.pendingEdits.map(\.id) == [pending.editID] && bar.pendingEdits[0].kind == .select(bar.tabs[1].id))
        #expect(try await store.read { try $0.tabSet(named: "main") }.selectedIndex == 0)
        try lock.release()
        let change = try await pending.result
        #expect(change.selectedIndex == 1 && change.revision == 2)
        #expect(shown(bar) == ["Home", "*All menu", "Reviews"] && bar.pendingEdits.isEmpty && bar.editError == nil)
    }

    @Test(.timeLimit(.minutes(5)))
    func editsWaitingForTheLockCanBeSeenAndCancelledAndTheOthersAreWrittenInOrder() async throws {
        let store = try makeStore(options: TabStore.Options(durability: .normal, busyTimeout: .milliseconds(200)))
        try await store.write { try $0.add(["Photos"], to: "main") }
        let bar = TabBarModel(store: store, setName: "main")
        let lock = try WriteLockHolder(path: store.location)
        let first = bar.select(1)
        let second = bar.select(2)
        let third = bar.close(bar.tabs[0].id)
        #expect(bar.pendingEdits.map(\.id) == [first.editID, second.editID, third.editID].compactMap { $0 })
        #expect(shown(bar) == ["All menu", "*Reviews", "Photos"])
        await waitUntil({ bar.pendingEdits.first?.isWaitingForLock }) { $0 == true }
        // The first is being written (waiting in its lock wait): cancelling it cuts the
        // wait short; the second has not begun.
        bar.cancel(try #require(first.editID))
        bar.cancel(try #require(second.editID))
        #expect(bar.pendingEdits.map(\.id) == [third.editID])
        #expect(shown(bar) == ["*All menu", "Reviews", "Photos"])
        await #expect(throws: TabStoreError(.editCancelled(set: "main"))) { try await first.result }
        await #expect(throws: TabStoreError(.editCancelled(set: "main"))) { try await second.result }
        #expect(bar.editError == nil)
        try lock.release()
        #expect(picture(try await third.result) == ["*All menu", "Reviews", "Photos"])
        #expect(try await store.read { try $0.history(of: "main", limit: 1) }.map(\.event.kind) == [.removed])
        bar.cancel(99)
        #expect(bar.pendingEdits.isEmpty)
    }

    @Test(.timeLimit(.minutes(5)))
    func aTapTheStoreRefusesForAnotherReasonIsTakenBackWithTheError() async throws {
        let store = try makeStore()
        let bar = TabBarModel(store: store, setName: "main")
        let other = try TabStore(path: store.location, options: options)
        let rename = { () throws(TabStoreError) in _ = try other.renameSet("main", to: "elsewhere") }
        try rename()
        let pending = bar.select(1)
        #expect(shown(bar) == ["Home", "*All menu", "Reviews"])
        await #expect(throws: TabStoreError(.setNotFound(set: "main"))) { try await pending.result }
        #expect(bar.editError == TabStoreError(.setNotFound(set: "main")) && bar.pendingEdits.isEmpty)
    }

    @Test(.timeLimit(.minutes(5)))
    func theQueueOfWaitingEditsIsBounded() async throws {
        let store = try makeStore(options: TabStore.Options(durability: .normal, busyTimeout: .milliseconds(100)))
        let bar = TabBarModel(store: store, setName: "main")
        let lock = try WriteLockHolder(path: store.location)
        let taps = (0..<TabBarModel.pendingEditLimit).map { bar.select($0 % 2 == 0 ? 1 : 2) }
        #expect(bar.pendingEdits.count == TabBarModel.pendingEditLimit && bar.selectedIndex == 2)
        let refused = bar.select(0)
        await #expect(throws: TabStoreError(.tooManyPendingEdits(set: "main", limit: 64))) { try await refused.result }
        #expect(bar.selectedIndex == 2 && bar.pendingEdits.count == 64 && refused.editID == nil)
        #expect(bar.editError?.description == "64 edits of set \"main\" are already waiting to be written; this one was not made")
        try lock.release()
        for tap in taps { _ = try await tap.result }
        #expect(try await store.read { try $0.tabSet(named: "main") }.revision == 65)
    }

    @Test func aTapOnATabAnotherProcessClosedIsTakenBack() async throws {
        let store = try makeStore()
        let bar = TabBarModel(store: store, setName: "main")
        let reviews = bar.tabs[2].id
        let other = try TabStore(path: store.location, options: options)
        // The synchronous remove, then the tap, with no suspension between: the bar cannot
        // have heard of the removal yet.
        let remove = { () throws(TabStoreError) in _ = try other.remove(["Reviews"], from: "main") }
        try remove()
        let pending = bar.select(reviews)
        #expect(bar.selectedTab?.title == "Reviews")
        await #expect(throws: TabStoreError(.tabIDNotFound(id: reviews, set: "main"))) { try await pending.result }
        #expect(bar.editError == TabStoreError(.tabIDNotFound(id: reviews, set: "main")))
        #expect(shown(bar) == ["*Home", "All menu"])
    }

    @Test(.timeLimit(.minutes(5)))
    func aReselectionIsAnsweredWithoutWaitingForTheLock() async throws {
        let store = try makeStore()
        let bar = TabBarModel(store: store, setName: "main")
        var changes = store.changes(in: "main").makeAsyncIterator()
        let lock = try WriteLockHolder(path: store.location)
        let tracked = Counter()
        withObservationTracking { _ = bar.reselection } onChange: { tracked.increment() }
        let home = bar.tabs[0]
        let change = try await bar.select(home.id).result
        #expect(lock.isHeld && change.isReselection && change.selectedIndex == 0)
        #expect(tracked.value == 1)
        #expect(bar.reselection == TabBarModel.Reselection(index: 0, tab: home, count: 1))
        _ = try await bar.select(0).result
        #expect(bar.reselection?.count == 2 && !bar.hasPendingEdits)
        // In-process change observers hear of it, as from the store's own select.
        let heard = try await changes.next()
        #expect(heard?.event == .reselected(TabUpdate(index: 0, tab: Tab(id: home.id, title: "Home", isSelected: true))))
        try lock.release()
        #expect(try await store.read { try $0.tabSet(named: "main") }.revision == 1)
    }

    @Test(.timeLimit(.minutes(5)))
    func tapsMadeWhileLockedReachTheStoreInOrderAndTheBarNeverGoesBack() async throws {
        let store = try makeStore()
        let bar = TabBarModel(store: store, setName: "main")
        let lock = try WriteLockHolder(path: store.location)
        let taps = [1, 2, 0, 2].map { bar.select($0) }
        #expect(bar.selectedIndex == 2)
        try lock.release()
        for tap in taps {
            _ = try await tap.result
            // Each answer replaces its own prediction; the later taps still show.
            #expect(bar.selectedIndex == 2)
        }
        let history = try await store.read { try $0.history(of: "main", limit: 4) }.reversed().map(\.event)
        #expect(history.map(selectedTitle) == ["All menu", "Reviews", "Home", "Reviews"])
        #expect(bar.revision == 5 && !bar.hasPendingEdits)
    }

    // MARK: Move, close, reopen

    @Test func moveShowsAtOnceAndMovesTheTabsTheBarShowedEvenAfterAnotherProcessAddedOne() async throws {
        let store = try makeStore()
        try await store.write { try $0.add(["Photos"], to: "main") }
        let bar = TabBarModel(store: store, setName: "main")
        let other = try TabStore(path: store.location, options: options)
        // A synchronous call: no suspension on the main actor, so the bar cannot have taken
        // the new tab in before the move.
        func addMap() throws { try other.add(["Map"], to: "main", at: 0) }
        try addMap()
        // Home before Photos, as the bar showed them: by offsets in the stored set it would be Map.
        let pending = bar.move(fromOffsets: [0], toOffset: 3)
        #expect(shown(bar) == ["All menu", "Reviews", "*Home", "Photos"])
        let edit = try await pending.result
        #expect(picture(edit) == ["Map", "All menu", "Reviews", "*Home", "Photos"])
        #expect(shown(bar) == ["Map", "All menu", "Reviews", "*Home", "Photos"])
    }

    @Test func closingTheSelectedTabSelectsItsRightNeighbourAtOnceAndReopenBringsItBack() async throws {
        let store = try makeStore()
        let bar = TabBarModel(store: store, setName: "main")
        bar.select(1)
        let closing = bar.close(bar.tabs[1].id)
        #expect(shown(bar) == ["Home", "*Reviews"])
        _ = try await closing.result
        let reopening = bar.reopen()
        // Only the store knows what was closed: the bar waits for its answer.
        #expect(shown(bar) == ["Home", "*Reviews"] && bar.hasPendingEdits)
        #expect(picture(try await reopening.result) == ["Home", "*All menu", "Reviews"])
        #expect(shown(bar) == ["Home", "*All menu", "Reviews"])
        bar.close(atOffsets: [0, 2])
        #expect(shown(bar) == ["*All menu"])
        await #expect(throws: TabStoreError(.setNotFound(set: "elsewhere"))) {
            try await TabBarModel(store: store, setName: "elsewhere").reopen().result
        }
    }

    /// A negative index counts from the end, as the store's do, so the range an error
    /// names is the range the bar takes.
    @Test func aNegativeIndexCountsFromTheEnd() async throws {
        let store = try makeStore()
        let bar = TabBarModel(store: store, setName: "main")
        await #expect(throws: TabStoreError(.indexOutOfRange(index: -4, count: 3, set: "main"))) { try await bar.select(-4).result }
        #expect(bar.editError?.description == #"index -4 is out of range for set "main" (valid: 0...2 or -3...-1)"#)
        #expect(try await bar.select(-1).result.selectedTab.title == "Reviews")
        #expect(bar.selectedIndex == 2)
        #expect(try await store.read { try $0.tabSet(named: "main") }.selectedIndex == 2)
    }

    @Test func offsetsOutsideTheBarAreRefusedWithoutWriting() async throws {
        let store = try makeStore()
        let bar = TabBarModel(store: store, setName: "main")
        await #expect(throws: TabStoreError(.indexOutOfRange(index: 3, count: 3, set: "main"))) { try await bar.select(3).result }
        #expect(bar.editError == TabStoreError(.indexOutOfRange(index: 3, count: 3, set: "main")))
        await #expect(throws: TabStoreError(.offsetOutOfRange(offset: -1, count: 3, set: "main"))) {
            try await bar.move(fromOffsets: [-1], toOffset: 0).result
        }
        #expect(bar.editError?.description == #"offset -1 is out of range for set "main" (valid: 0...2)"#)
        await #expect(throws: TabStoreError(.insertionOffsetOutOfRange(offset: 4, count: 3, set: "main"))) {
            try await bar.move(fromOffsets: [0], toOffset: 4).result
        }
        #expect(bar.editError?.description == #"insertion offset 4 is out of range for set "main" (valid: 0...3)"#)
        await #expect(throws: TabStoreError(.insertionOffsetOutOfRange(offset: -1, count: 3, set: "main"))) {
            try await bar.move(fromOffsets: [0], toOffset: -1).result
        }
        await #expect(throws: TabStoreError(.offsetOutOfRange(offset: 5, count: 3, set: "main"))) { try await bar.close(atOffsets: [5]).result }
        #expect(bar.editError?.description == #"offset 5 is out of range for set "main" (valid: 0...2)"#)
        await #expect(throws: TabStoreError(.offsetOutOfRange(offset: -1, count: 3, set: "main"))) { try await bar.close(atOffsets: [-1]).result }
        #expect(shown(bar) == ["*Home", "All menu", "Reviews"] && !bar.hasPendingEdits)
        #expect(try await store.read { try $0.tabSet(named: "main") }.revision == 1)
    }

    // MARK: Following the store

    @Test(.timeLimit(.minutes(5)))
    func theBarShowsEachChangeMadeElsewhereAndFollowsARename() async throws {
        let store = try makeStore()
        let bar = TabBarModel(store: store, setName: "main")
        // Another connection, as a widget or the CLI would be.
        let other = try TabStore(path: store.location, options: options)
        try await other.write { try $0.select(.index(2), in: "main") }
        await waitUntil({ bar.selectedIndex }) { $0 == 2 }
        #expect(bar.tabs.map(\.isSelected) == [false, false, true])
        try await other.write { try $0.renameSet("main", to: "detail") }
        await waitUntil({ bar.setName }) { $0 == "detail" }
        #expect(bar.revision == 3)
        bar.select(0)
        await waitUntil({ bar.hasPendingEdits }) { !$0 }
        #expect(picture(try await store.read { try $0.tabSet(named: "detail") }) == ["*Home", "All menu", "Reviews"])
    }

    @Test(.timeLimit(.minutes(5)))
    func aRenameToACanonicallyEquivalentFormIsShown() async throws {
        let store = try makeStore()
        try await store.write { try $0.rename(.index(2), to: "Caf\u{E9}", in: "main") }
        try await store.write { try $0.renameSet("main", to: "Men\u{FC}") }
        let bar = TabBarModel(store: store, setName: "Men\u{FC}")
        // Other bytes, the same text to Swift's `==`: a precomposed letter, then a letter
        // and its combining mark.
        let other = try TabStore(path: store.location, options: options)
        try await other.write { try $0.rename(.index(2), to: "Cafe\u{301}", in: "Men\u{FC}") }
        await waitUntil({ bar.revision }) { $0 == 4 }
        #expect(Array(bar.tabs[2].title.utf8) == Array("Cafe\u{301}".utf8))
        try await other.write { try $0.renameSet("Men\u{FC}", to: "Menu\u{308}") }
        await waitUntil({ bar.revision }) { $0 == 5 }
        #expect(Array(bar.setName.utf8) == Array("Menu\u{308}".utf8))
        #expect(Tab(id: bar.tabs[2].id, title: "Caf\u{E9}", isSelected: false) != bar.tabs[2])
        #expect(Tab(id: bar.tabs[2].id, title: "Cafe\u{301}", isSelected: false) == bar.tabs[2])
    }

    @Test(.timeLimit(.minutes(5)))
    func twoBarsOfOneSetStayInSync() async throws {
        let store = try makeStore()
        let normal = TabBarModel(store: store, setName: "main")
        let sticky = TabBarModel(store: store, setName: "main")
        _ = try await normal.select(2).result
        await waitUntil({ sticky.selectedIndex }) { $0 == 2 }
        _ = try await sticky.select(1).result
        await waitUntil({ normal.selectedIndex }) { $0 == 1 }
        #expect(normal.tabs == sticky.tabs)
        #expect(normal.revision == 3 && sticky.revision == 3)
    }

    @Test(.timeLimit(.minutes(5)))
    func aRemovedSetEmptiesTheBar() async throws {
        let store = try makeStore()
        let bar = TabBarModel(store: store, setName: "main")
        try await store.write { try $0.removeSet("main") }
        await waitUntil({ bar.tabs }) { $0.isEmpty }
        #expect(bar.selectedIndex == nil && bar.lastSelectedIndex == 0)
    }

    // MARK: One state per set

    @Test(.timeLimit(.minutes(5)))
    func everyBarOfASetShowsTheSamePendingEditsWhileAnotherProcessHoldsTheLock() async throws {
        let store = try makeStore()
        let normal = TabBarModel(store: store, setName: "main")
        let sticky = TabBarModel(store: store, setName: "main")
        let lock = try WriteLockHolder(path: store.location)
        let reviews = normal.tabs[2].id
        let pending = normal.select(reviews)
        // No await between: the sticky bar shows the tap at once, as pending.
        #expect(shown(sticky) == ["Home", "All menu", "*Reviews"] && sticky.hasPendingEdits)
        #expect(sticky.pendingEdits == normal.pendingEdits)
        sticky.move(fromOffsets: [0], toOffset: 3)
        #expect(shown(normal) == ["All menu", "*Reviews", "Home"] && normal.pendingEdits.count == 2)
        // A re-tap on either bar is one reselection, seen by both.
        _ = try await sticky.select(reviews).result
        #expect(normal.reselection?.count == 1 && normal.reselection == sticky.reselection)
        try lock.release()
        _ = try await pending.result
        await sticky.waitForPendingEdits()
        #expect(shown(normal) == ["All menu", "*Reviews", "Home"] && shown(sticky) == shown(normal))
        #expect(!normal.hasPendingEdits && !sticky.hasPendingEdits && normal.revision == 3 && sticky.revision == 3)
        // A bar made later shows the state without reading the set.
        let third = TabBarModel(store: store, setName: "main")
        #expect(third.tabs == normal.tabs && third.revision == 3)
    }

    /// Bars share a state within one store: a bar of the set in another store (of the same
    /// file) is its own, and that store goes when its bars do, as nothing else holds it.
    @Test(.timeLimit(.minutes(5)))
    func aBarOfTheSetInAnotherStoreIsItsOwnAndItsStoreGoesWithIt() async throws {
        let store = try makeStore()
        var other: TabStore? = try TabStore(path: store.location, options: options)
        weak let released = other
        var theirs: TabBarModel? = TabBarModel(store: try #require(other), setName: "main")
        let mine = TabBarModel(store: store, setName: "main")
        mine.select(2)
        // No await between: the tap is shown, pending, on this store's bars only.
        #expect(shown(mine) == ["Home", "All menu", "*Reviews"] && mine.hasPendingEdits)
        #expect(TabBarModel(store: store, setName: "main").pendingEdits == mine.pendingEdits)
        #expect(shown(try #require(theirs)) == ["*Home", "All menu", "Reviews"] && theirs?.hasPendingEdits == false)
        theirs = nil
        other = nil
        #expect(released == nil)
        await mine.waitForPendingEdits()
        #expect(shown(mine) == ["Home", "All menu", "*Reviews"] && !mine.hasPendingEdits)
    }

    @Test(arguments: 1...6)
    func barsOfASetAgreeAfterEveryRandomEditOfEither(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let store = try makeStore()
        try await store.write { try $0.add(["Photos", "Map"], to: "main") }
        let bars = [TabBarModel(store: store, setName: "main"), TabBarModel(store: store, setName: "main")]
        for _ in 0..<20 {
            let bar = bars[random.below(2)]
            if bar.tabs.count < 2 { _ = try await bar.reopen().result }
            let count = bar.tabs.count
            switch random.below(3) {
            case 0: bar.select(random.below(count))
            case 1: bar.move(fromOffsets: [random.below(count)], toOffset: random.below(count + 1))
            default: bar.close(atOffsets: [random.below(count)])
            }
            // Before and after the store's answer, the two show one state.
            #expect(bars[0].tabs == bars[1].tabs && bars[0].pendingEdits == bars[1].pendingEdits, "seed \(seed)")
            await bar.waitForPendingEdits()
            #expect(bars[0].tabs == bars[1].tabs && bars[0].revision == bars[1].revision, "seed \(seed)")
            #expect(bars[0].tabs == (try await store.read { try $0.tabSet(named: "main") }).tabs, "seed \(seed)")
        }
    }

    // MARK: Change pairs at the tap

    @Test(.timeLimit(.minutes(5)))
    func aTapCarriesTheDocumentsPairsWithWholeTabsBeforeTheStoreAnswers() async throws {
        let store = try TabStore(path: folder.file(), options: options)
        try await store.write { try $0.add([NewTab("Home", payload: ["icon": "house"]), NewTab("Reviews", payload: ["icon": "star"])], to: "main", creatingSet: true) }
        let bar = TabBarModel(store: store, setName: "main")
        let (home, reviews) = (bar.tabs[0], bar.tabs[1])
        let lock = try WriteLockHolder(path: store.location)
        let pending = bar.select(reviews.id)
        // Known at the tap, while the lock is held: the old selection, then the new one.
        #expect(pending.changes == [
            TabBarModel.Change(
                old: TabUpdate(index: 0, tab: home),
                new: TabUpdate(index: 0, tab: Tab(id: home.id, title: "Home", isSelected: false, payload: ["icon": "house"]))
            ),
            TabBarModel.Change(
                old: TabUpdate(index: 1, tab: reviews),
                new: TabUpdate(index: 1, tab: Tab(id: reviews.id, title: "Reviews", isSelected: true, payload: ["icon": "star"]))
            ),
        ])
        #expect(bar.pendingEdits.first?.changes == pending.changes)
        let closing = bar.close(reviews.id)
        #expect(closing.changes == [
            TabBarModel.Change(old: TabUpdate(index: 1, tab: bar.pendingEdits[0].changes[1].new!.tab), new: nil),
            TabBarModel.Change(
                old: TabUpdate(index: 0, tab: Tab(id: home.id, title: "Home", isSelected: false, payload: ["icon": "house"])),
                new: TabUpdate(index: 0, tab: home)
            ),
        ])
        // A re-tap of Home, now shown selected, and a reopen (known only to the store) have none.
        #expect(bar.select(0).changes == [] && bar.reopen().changes == [])
        try lock.release()
        await bar.waitForPendingEdits()
        #expect(shown(bar) == ["Home", "*Reviews"])
    }

    @Test(arguments: 1...8)
    func changePairsTurnTheBarBeforeIntoTheBarAfter(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let store = try TabStore.inMemory(options: TabStore.Options(durability: .normal))
        try await store.write { try $0.add((0..<6).map { NewTab("T\($0)", payload: ["n": "\($0)"]) }, to: "main", creatingSet: true) }
        let bar = TabBarModel(store: store, setName: "main")
        for _ in 0..<30 {
            if bar.tabs.count < 2 { _ = try await bar.reopen().result }
            let before = bar.tabs
            let count = before.count
            let pending: [TabBarModel.Change] = switch random.below(3) {
            case 0: bar.select(random.below(count)).changes
            case 1: bar.move(fromOffsets: Set((0..<2).map { _ in random.below(count) }), toOffset: random.below(count + 1)).changes
            default: bar.close(atOffsets: [random.below(count)]).changes
            }
            // Applying the pairs to the bar before gives the bar after, and every tab
            // the pairs leave alone is where it was, as it was.
            var after = before
            let removed = Set(pending.compactMap(\.old?.tab.id))
            after.removeAll { removed.contains($0.id) }
            for change in pending.compactMap(\.new).sorted(by: { $0.index < $1.index }) {
                after.insert(change.tab, at: change.index)
            }
            #expect(after == bar.tabs, "seed \(seed)")
            #expect(Set(pending.compactMap { $0.old?.tab.id ?? $0.new?.tab.id }).count == pending.count, "seed \(seed)")
            await bar.waitForPendingEdits()
        }
    }

    // MARK: Helpers

    /// Waits until `read` gives a value for which `done` holds, woken only by observation.
    private func waitUntil<T>(_ read: @escaping () -> T, _ done: (T) -> Bool) async {
        while !done(read()) {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                withObservationTracking { _ = read() } onChange: { continuation.resume() }
            }
        }
    }

    /// Breaks reads from outside the store, as a damaged file would.
    private func dropTable(_ table: String, at path: String) throws {
        var handle: OpaquePointer?
        defer { sqlite3_close(handle) }
        try #require(sqlite3_open(path, &handle) == SQLITE_OK)
        try #require(sqlite3_exec(handle, "PRAGMA foreign_keys = OFF; DROP TABLE \(table)", nil, nil, nil) == SQLITE_OK)
    }

    private func shown(_ bar: TabBarModel) -> [String] {
        bar.tabs.map { ($0.isSelected ? "*" : "") + $0.title }
    }

    private func selectedTitle(_ event: TabEvent) -> String? {
        guard case let .selectionChanged(updates) = event else { return nil }
        return updates.last?.tab.title
    }
}
