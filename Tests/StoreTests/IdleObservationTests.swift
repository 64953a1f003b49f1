import TabStoreTestSupport
import Testing
@testable import TabStoreKit

/// An observer of a watched file wakes only after a write: no timer runs beside the file
/// watch, and the looks that follow a notification end. A store in memory never wakes.
@Suite struct IdleObservationTests {
    let folder = TemporaryFolder()

    @Test(.timeLimit(.minutes(5)))
    func anIdleObserverOfAWatchedFileLooksNoMoreOnceTheLooksAfterAWriteHaveEnded() async throws {
        let path = folder.file()
        let store = try TabStore(path: path, options: TabStore.Options(durability: .normal, changePollInterval: .milliseconds(10)))
        try await store.write { try $0.add(["Home", "Reviews"], to: "main", creatingSet: true) }
        var values = store.observe("main").makeAsyncIterator()
        _ = try await values.next()
        #expect(store.hub.isWatchingFiles)
        let other = try TabStore(path: path, options: TabStore.Options(durability: .normal))
        try await other.write { try $0.select(1, in: "main") }
        #expect(try await values.next()??.selectedIndex == 1)
        // The looks after that write end with the schedule, and then no look is to come
        // until the next notification; with a timer beside the watch (the 10 ms poll
        // interval), one always would be.
        try await waitFor("the looks after the write to end") { store.hub.wakeupIsIdle }
        #expect(store.hub.looks >= RecheckTimer.schedule.count)
        #expect(store.hub.isWatchingFiles)
        withExtendedLifetime(values) {}
    }

    @Test(.timeLimit(.minutes(5)))
    func aStoreInMemoryNeverLooksForOtherConnectionsCommits() async throws {
        let store = try TabStore.inMemory(options: TabStore.Options(durability: .normal, changePollInterval: .milliseconds(10)))
        try await store.write { try $0.add(["Home", "Reviews"], to: "main", creatingSet: true) }
        var values = store.observe("main").makeAsyncIterator()
        _ = try await values.next()
        try await store.write { try $0.select(1, in: "main") }
        #expect(try await values.next()??.selectedIndex == 1)
        // No wake-up at all: neither a watch nor a timer.
        #expect(store.hub.looks == 0 && !store.hub.isWatchingFiles && store.hub.neverWakes)
    }
}
