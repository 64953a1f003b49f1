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
        try await store.add(["Home", "Reviews"], to: "main", creatingSet: true)
        var values = store.observe("main").makeAsyncIterator()
        _ = try await values.next()
        #expect(store.hub.isWatchingFiles)
        let other = try TabStore(path: path, options: TabStore.Options(durability: .normal))
        try await other.select(1, in: "main")
        #expect(try await values.next()??.selectedIndex == 1)
        // The looks after that write end within the schedule (the last at 512 ms); with
        // a timer beside the watch (the 10 ms poll interval), they would go on.
        try await Task.sleep(for: .milliseconds(900))
        let settled = store.hub.looks
        #expect(settled >= FollowUpLooks.schedule.count)
        try await Task.sleep(for: .milliseconds(1_500))
        #expect(store.hub.looks == settled)
        withExtendedLifetime(values) {}
    }

    @Test(.timeLimit(.minutes(5)))
    func aStoreInMemoryNeverLooksForOtherConnectionsCommits() async throws {
        let store = try TabStore.inMemory(options: TabStore.Options(durability: .normal, changePollInterval: .milliseconds(10)))
        try await store.add(["Home", "Reviews"], to: "main", creatingSet: true)
        var values = store.observe("main").makeAsyncIterator()
        _ = try await values.next()
        try await store.select(1, in: "main")
        #expect(try await values.next()??.selectedIndex == 1)
        try await Task.sleep(for: .milliseconds(300))
        #expect(store.hub.looks == 0 && !store.hub.isWatchingFiles)
    }
}
