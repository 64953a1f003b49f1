import Foundation
import Synchronization
import TabStoreTestSupport
import Testing
@testable import TabStoreKit

/// A suspended store (an app that iOS is about to suspend) takes no write lock: its
/// `async` writes wait for `resume()` and then run in order, the one running when it was
/// suspended ends first, and reads go on. Linux has no app suspension, but it shows the
/// locks a process holds (/proc/locks), and that is what the system checks.
@MainActor @Suite struct SuspensionTests {
    let folder = TemporaryFolder()
    let options = TabStore.Options(durability: .normal, busyTimeout: .seconds(10))

    private func makeStore() throws -> TabStore {
        let store = try TabStore(path: folder.file(), options: options)
        try store.add(["Home", "All menu", "Reviews"], to: "main", creatingSet: true)
        return store
    }

    @Test(.timeLimit(.minutes(5)))
    func editsMadeWhileSuspendedShowAtOnceTakeNoWriteLockAndAreWrittenInOrderOnResume() async throws {
        let store = try makeStore()
        // The check sees a write lock this process holds: one taken by hand.
        let held = try store.withDatabase { database throws(TabStoreError) -> [String] in
            try database.execute("BEGIN IMMEDIATE")
            defer { try? database.execute("ROLLBACK") }
            return (try? Self.writeLocksHeld(on: database.path)) ?? []
        }
        #expect(!held.isEmpty)
        let bar = TabBarModel(store: store, setName: "main")
        await store.suspend()
        #expect(store.isSuspended)
        let first = bar.select(1)
        let second = bar.move(fromOffsets: [0], toOffset: 3)
        #expect(picture(bar.tabs) == ["*All menu", "Reviews", "Home"] && bar.hasPendingEdits)
        // The first edit waits for resume() before it takes any lock: nothing is written
        // and no write lock is taken.
        let other = try TabStore(path: store.location, options: options)
        try await waitFor("the first edit to wait for resume()") { store.suspension.holdsAWriteBack }
        #expect(try Self.writeLocksHeld(on: store.location) == [])
        #expect(try await other.read { try $0.tabSet(named: "main") }.revision == 1)
        // Reads go on while suspended, in this process and in others.
        #expect(picture(try await store.read { try $0.tabSet(named: "main") }.tabs) == ["*Home", "All menu", "Reviews"])
        store.resume()
        #expect(!store.isSuspended)
        #expect(try await first.result.selectedIndex == 1)
        #expect(picture(try await second.result.tabs) == ["*All menu", "Reviews", "Home"])
        #expect(try await other.read { try $0.history(of: "main", limit: 2) }.map(\.event.kind) == [.moved, .selectionChanged])
    }

    @Test(.timeLimit(.minutes(5)))
    func suspendDoesNotWaitForAWriteStuckBehindAnotherProcesssLockWhichRunsAgainOnResume() async throws {
        let store = try makeStore()
        let lock = try WriteLockHolder(path: store.location)
        let running = Task { try await store.write { try $0.select(2, in: "main") } }
        // The write waits for the lock (10 s of busy timeout).
        try await waitFor("the write to wait for the lock") { lockWaitsBegun(store) > 0 }
        // suspend() returns while the lock is still held: the write stopped waiting.
        await store.suspend()
        #expect(lock.isHeld && store.isSuspended)
        let later = Task { try await store.write { try $0.select(0, in: "main") } }
        // Released while suspended: the write cut short waits for resume() before it takes
        // any lock, the later one behind it, so neither is made and no write lock is taken.
        try lock.release()
        try await waitFor("the write cut short to wait for resume()") { store.suspension.holdsAWriteBack }
        #expect(try Self.writeLocksHeld(on: store.location) == [])
        #expect(try await store.read { try $0.tabSet(named: "main") }.revision == 1)
        store.resume()
        // The write cut short runs first, then the one asked for later.
        #expect(try await running.value.selectedIndex == 2)
        #expect(try await later.value.selectedIndex == 0)
        #expect(try await store.read { try $0.history(of: "main", limit: 2) }.map(\.revision) == [3, 2])
    }

    @Test(.timeLimit(.minutes(5)))
    func aModelsTapMadeBeforeSuspendingBehindAForeignLockIsWrittenOnResume() async throws {
        let store = try makeStore()
        let bar = TabBarModel(store: store, setName: "main")
        let lock = try WriteLockHolder(path: store.location)
        let tap = bar.select(1)
        try await waitFor("the tap's write to wait for the lock") { lockWaitsBegun(store) > 0 }
        await store.suspend()
        #expect(lock.isHeld && picture(bar.tabs) == ["Home", "*All menu", "Reviews"] && bar.hasPendingEdits)
        try lock.release()
        store.resume()
        #expect(try await tap.result.selectedIndex == 1)
        #expect(bar.editError == nil && !bar.hasPendingEdits)
    }

    @Test(.timeLimit(.minutes(5)))
    func aWriteCutShortAfterItsFirstCallWroteFailsInsteadOfRunningAgain() async throws {
        let store = try makeStore()
        let path = store.location
        let holder = Mutex<WriteLockHolder?>(nil)
        let write = Task {
            try await store.write { store throws(TabStoreError) in
                try store.select(1, in: "main")
                holder.withLock { $0 = try? WriteLockHolder(path: path) }
                try store.select(2, in: "main")
            }
        }
        try await waitFor("the second call to wait for the lock") { lockWaitsBegun(store) > 0 }
        await store.suspend()
        // Run again after resume(), it would make its first write twice: it fails instead.
        await #expect(throws: TabStoreError(.busy(path: path))) { try await write.value }
        #expect(holder.withLock { $0?.isHeld } == true)
        try holder.withLock { try $0?.release() }
        store.resume()
        #expect(try await store.read { try $0.tabSet(named: "main") }.selectedIndex == 1)
        #expect(try await store.read { try $0.history(of: "main", limit: 5) }.map(\.revision) == [2, 1])
    }

    @Test func resumingAStoreThatIsNotSuspendedChangesNothing() async throws {
        let store = try makeStore()
        store.resume()
        #expect(!store.isSuspended)
        await store.suspend()
        await store.suspend()
        store.resume()
        #expect(!store.isSuspended)
        #expect(try await store.write { try $0.select(1, in: "main") }.selectedIndex == 1)
    }

    /// The POSIX write locks this process holds on the database's files, from /proc/locks.
    nonisolated private static func writeLocksHeld(on path: String) throws -> [String] {
        var inodes: [String] = []
        for file in [path, path + "-wal", path + "-shm"] {
            guard let inode = try? FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int else { continue }
            inodes.append(String(inode))
        }
        let pid = String(ProcessInfo.processInfo.processIdentifier)
        let table = try String(contentsOfFile: "/proc/locks", encoding: .utf8)
        return table.split(separator: "\n").filter { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[3] == "WRITE", fields[4] == pid else { return false }
            return inodes.contains(String(fields[5].split(separator: ":").last ?? ""))
        }.map(String.init)
    }

    private func picture(_ tabs: [Tab]) -> [String] {
        tabs.map { ($0.isSelected ? "*" : "") + $0.title }
    }
}
