import Testing
import TabStoreTestSupport
@testable import TabStoreKit

/// A full disk and a read-only file system: the store says so, and loses nothing.
@Suite struct FileSystemFailureTests {
    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount a tmpfs (root in CI)"))
    func fullDiskFailsWithDiskFullAndKeepsEveryAcknowledgedWrite() throws {
        let mount = try #require(TemporaryMount.tmpfs(kilobytes: 512))
        let path = mount.path + "/tabs.sqlite"
        var acknowledged: [String] = []
        var failure: TabStoreError?
        var refused = ""
        do {
            let store = try TabStore(path: path)
            for index in 0..<10_000 {
                let title = "\(index)-" + String(repeating: "탭", count: 100)
                do {
                    try store.add([title], to: "big", creatingSet: true)
                    acknowledged.append(title)
                } catch {
                    failure = error
                    refused = title
                    break
                }
            }
            // Still full: the same write fails the same way, and reads still work.
            #expect(thrownError { () throws(TabStoreError) in try store.add([refused], to: "big", creatingSet: true) } == TabStoreError(.diskFull(path: path)))
            #expect(try store.tabSet(named: "big").tabs.map(\.title) == acknowledged)
        }
        #expect(failure == TabStoreError(.diskFull(path: path)))
        #expect(!acknowledged.isEmpty)
        let reopened = try TabStore(path: path)
        #expect(try reopened.tabSet(named: "big").tabs.map(\.title) == acknowledged)
        #expect(try reopened.info().consistencyCheck == "ok")
    }

    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount a tmpfs (root in CI)"))
    func readOnlyFileSystemServesReadsAndRefusesWrites() throws {
        let mount = try #require(TemporaryMount.tmpfs(kilobytes: 1024))
        let path = mount.path + "/tabs.sqlite"
        do {
            let store = try TabStore(path: path)
            try store.add(["Home", "Reviews"], to: "main", creatingSet: true)
            try store.select(.index(1), in: "main")
        }
        #expect(mount.remountReadOnly())
        let before = contents(path)
        let store = try TabStore(path: path)
        #expect(try picture(store.tabSet(named: "main")) == ["Home", "*Reviews"])
        #expect(try store.selectedTab(in: "main").index == 1)
        #expect(try store.export().sets.count == 1)
        #expect(try store.info().consistencyCheck == "ok")
        #expect(thrownError { () throws(TabStoreError) in try store.select(.index(0), in: "main") } == TabStoreError(.readOnly(path: path)))
        #expect(thrownError { () throws(TabStoreError) in try store.add(["x"], to: "main", creatingSet: true) } == TabStoreError(.readOnly(path: path)))
        #expect(contents(path) == before)
    }

    /// A device that can only be read cannot record what a server settles: its sync is
    /// refused before anything reaches the server, and its edit stays pending.
    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount a tmpfs (root in CI)"))
    func aDeviceOnAReadOnlyFileSystemSyncsNothing() throws {
        let mount = try #require(TemporaryMount.tmpfs(kilobytes: 1024))
        let folder = TemporaryFolder()
        let server = try TabStore(path: folder.file("server.sqlite"))
        let path = mount.path + "/phone.sqlite"
        do {
            let phone = try TabStore(path: path)
            try phone.startSync(server: "test")
            try phone.add(["Home"], to: "main", creatingSet: true)
            try phone.sync(with: server)
            try phone.add(["Map"], to: "main")
        }
        #expect(mount.remountReadOnly())
        let phone = try TabStore(path: path)
        #expect(thrownError { () throws(TabStoreError) in try phone.sync(with: server) } == TabStoreError(.readOnly(path: path)))
        #expect(try picture(server.tabSet(named: "main")) == ["*Home"])
        #expect(try phone.syncStatus().pending == 1)
    }

    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount a tmpfs (root in CI)"))
    func newDatabaseOnReadOnlyFileSystemCannotBeCreated() throws {
        let mount = try #require(TemporaryMount.tmpfs(kilobytes: 64))
        #expect(mount.remountReadOnly())
        let path = mount.path + "/tabs.sqlite"
        guard case .cannotOpen(path, _)? = thrownError({ () throws(TabStoreError) in try TabStore(path: path) })?.reason else {
            Issue.record("expected cannotOpen")
            return
        }
    }

    /// On a read-only file system the file is read as it was when opened (no -shm can be
    /// made to see other writers): observing says so instead of waiting forever. A value
    /// observer gets the value there is, then the reason no other will come.
    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount a tmpfs (root in CI)"))
    func observingADatabaseReadAsItWasSaysSo() async throws {
        let mount = try #require(TemporaryMount.tmpfs(kilobytes: 1024))
        let path = mount.path + "/tabs.sqlite"
        do {
            let writer = try TabStore(path: path)
            try await writer.write { try $0.add(["Home", "Menu"], to: "s", creatingSet: true) }
        }
        #expect(mount.remountReadOnly())
        let store = try TabStore(path: path)
        let unseen = TabStoreError(.cannotFollowChanges(
            path: path, reason: "its folder \(mount.path) is not writable, and SQLite needs its -shm file there to see other processes' changes"
        ))
        #expect(unseen.description == "cannot follow changes to database \(path): its folder \(mount.path) is not writable, and SQLite needs its -shm file there to see other processes' changes")
        var changes = store.changes(in: "s").makeAsyncIterator()
        await #expect(throws: unseen) { _ = try await changes.next() }
        var values = store.observe("s").makeAsyncIterator()
        #expect(try await values.next()??.tabs.map(\.title) == ["Home", "Menu"])
        await #expect(throws: unseen) { _ = try await values.next() }
        // One-shot reads still work.
        #expect(picture(try await store.read { try $0.tabSet(named: "s") }) == ["*Home", "Menu"])
    }
}
