import Foundation
import Synchronization
import TabStoreTestSupport
import Testing
@testable import TabStoreKit

/// `read` and `write` run their calls on the store's own queues: with another process
/// holding the write lock, reads and unrelated tasks go on, and writes wait without taking
/// pool threads.
@Suite struct AsyncTabStoreTests {
    let folder = TemporaryFolder()
    /// Long enough that a call blocked behind the lock could never finish before the test
    /// releases it, even on a machine loaded enough to keep the tasks from a thread for
    /// a while: blocking shows as a wrong outcome, not as a slow test.
    let options = TabStore.Options(durability: .normal, busyTimeout: .seconds(60))

    @Test(.timeLimit(.minutes(5)))
    func readsAndOtherTasksFinishWhileAnotherProcessHoldsTheWriteLockAndWritesWait() async throws {
        let path = folder.file()
        let store = try TabStore(path: path, options: options)
        try await store.write { try $0.add(["Home", "All menu", "Reviews"], to: "main", creatingSet: true) }
        let lock = try WriteLockHolder(path: path)
        // More waiting writes than the cooperative pool has threads (two here): if they
        // held pool threads, nothing below could run until the lock is released.
        let writesDone = Counter()
        let writes = (0..<4).map { number in
            Task {
                try await store.write { try $0.add(["W\(number)"], to: "other", creatingSet: true) }
                writesDone.increment()
            }
        }
        let reads = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<10 {
                group.addTask { picture(try await store.read { try $0.tabSet(named: "main") }) }
            }
            group.addTask {
                // A task that gives its thread up and needs one again to go on.
                for _ in 0..<10 { await Task.yield() }
                return ["yielded"]
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(reads.filter { $0 == ["*Home", "All menu", "Reviews"] }.count == 10)
        #expect(reads.contains(["yielded"]))
        #expect(writesDone.value == 0)
        #expect(lock.isHeld)

        try lock.release()
        for write in writes { try await write.value }
        #expect(try await store.read { try $0.tabSet(named: "other") }.tabs.map(\.title).sorted() == ["W0", "W1", "W2", "W3"])
    }

    @Test(.timeLimit(.minutes(5)))
    func aSynchronousReadDoesNotWaitBehindAWriteWaitingForTheLock() async throws {
        let path = folder.file()
        let store = try TabStore(path: path, options: options)
        try await store.write { try $0.add(["A", "B"], to: "main", creatingSet: true) }
        let lock = try WriteLockHolder(path: path)
        let write = Task { try await store.write { try $0.select(.index(1), in: "main") } }
        // The write waits in SQLite's busy handler, holding the writer connection.
        try await waitFor("the write to wait for the lock") { lockWaitsBegun(store) > 0 }
        // Synchronous calls, as from a thread of the app's own.
        let read = { () throws(TabStoreError) in (try store.tabSet(named: "main"), try store.tabSets()) }
        let (set, summaries) = try read()
        #expect(picture(set) == ["*A", "B"])
        #expect(summaries.map(\.selectedIndex) == [0])
        #expect(lock.isHeld)
        try lock.release()
        #expect(try await write.value.updates.map(\.index) == [0, 1])
        #expect(picture(try await store.read { try $0.tabSet(named: "main") }) == ["A", "*B"])
    }

    @Test(.timeLimit(.minutes(5)))
    func aWriteThatHasStartedRunsToItsEndWhenItsTaskIsCancelled() async throws {
        let path = folder.file()
        let store = try TabStore(path: path, options: options)
        try store.add(["A", "B"], to: "main", creatingSet: true)
        let lock = try WriteLockHolder(path: path)
        let write = Task { try await store.write { try $0.select(.index(1), in: "main") } }
        try await waitFor("the write to wait for the lock") { lockWaitsBegun(store) > 0 }
        write.cancel()
        try lock.release()
        #expect(try await write.value.selectedIndex == 1)
        #expect(picture(try store.tabSet(named: "main")) == ["A", "*B"])
    }

    @Test func aWriteMakesItsCallsInOrderAndEndsAtTheFirstError() async throws {
        let store = try TabStore.inMemory(options: options)
        try store.add(["A", "B"], to: "main", creatingSet: true)
        await #expect(throws: TabStoreError(.setNotFound(set: "nope"))) {
            try await store.write { store throws(TabStoreError) in
                try store.select(.index(1), in: "main")
                try store.select(.index(0), in: "nope")
                try store.select(.index(0), in: "main")
            }
        }
        // Each call is its own write: the first is made, the one after the error is not.
        #expect(picture(try store.tabSet(named: "main")) == ["A", "*B"])
        #expect(try store.history(of: "main", limit: 5).map(\.revision) == [2, 1])
    }

    @Test(arguments: StoreBackend.allCases)
    func theCallsMadeInReadAndWriteGiveWhatTheyGiveOutsideThem(backend: StoreBackend) async throws {
        let store = try backend.makeDatabase(in: folder).open(options: options)
        try await store.write { try $0.add(["Home", "All menu", "Reviews"], to: "main", creatingSet: true) }
        let change = try await store.write { try $0.select(.title("Reviews"), in: "main") }
        #expect(change.updates.map(\.index) == [0, 2])
        try await store.write { try $0.move(.index(2), to: 0, in: "main") }
        try await store.write { try $0.rename(.index(1), to: "Start", in: "main") }
        try await store.write { try $0.remove([.title("All menu")], from: "main") }
        #expect(picture(try await store.write { try $0.reopen(in: "main") }) == ["*Reviews", "Start", "All menu"])
        try await store.write { try $0.replaceTabs(of: "side", with: ["x"]) }
        try await store.write { try $0.renameSet("side", to: "aside") }
        #expect(try await store.read { try $0.tabSets() }.map(\.name) == ["aside", "main"])
        let document = try await store.read { try $0.export() }
        try await store.write { try $0.removeSet("aside") }
        #expect(try await store.write { try $0.importDocument(document, replace: true) } == 1)
        #expect(try await store.read { try $0.selectedTab(in: "main") }.tab.title == "Reviews")
        #expect(try await store.read { try $0.history(of: "main", limit: 1) }.map(\.revision) == [6])
        #expect(try await store.read { try $0.closedTabs(in: "main") } == [])
        switch backend {
        case .sqlite:
            let copyPath = folder.file("copy.sqlite")
            try await store.write { try $0.backup(to: copyPath) }
            let copy = try TabStore(path: copyPath)
            #expect(picture(try await copy.read { try $0.tabSet(named: "main") }) == ["*Reviews", "Start", "All menu"])
        case .postgres:
            // A backup is a file's: a server has its own tools for that.
            let copyPath = folder.file("copy.sqlite")
            await #expect(throws: TabStoreError(.backupNeedsFile(database: store.location))) { try await store.write { try $0.backup(to: copyPath) } }
        }
        await #expect(throws: TabStoreError(.setNotFound(set: "nope"))) { try await store.read { try $0.tabSet(named: "nope") } }
        #expect(try await store.read { try $0.info() }.setCount == 2)
    }

    @Test(arguments: StoreBackend.allCases)
    func anInMemoryStoreReadsItsOwnWrites(backend: StoreBackend) async throws {
        let store = try backend.makeStore()
        try await store.write { try $0.add(["A", "B"], to: "main", creatingSet: true) }
        #expect(picture(try await store.read { try $0.tabSet(named: "main") }) == ["*A", "B"])
    }
}

/// A `sqlite3` process holding the write lock (`BEGIN IMMEDIATE`) until released.
final class WriteLockHolder {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    init(path: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        try send("PRAGMA busy_timeout = 10000;\nBEGIN IMMEDIATE;\n.print locked\n")
        // Wait for the process to say it has the lock.
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("locked") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw LockHolderFailed() }
            said += chunk
        }
    }

    var isHeld: Bool { process.isRunning }

    func release() throws {
        try send("COMMIT;\n.quit\n")
        process.waitUntilExit()
    }

    private func send(_ text: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

struct LockHolderFailed: Error {}

/// A count several tasks add to.
final class Counter: Sendable {
    private let count = Atomic(0)
    var value: Int { count.load(ordering: .sequentiallyConsistent) }
    func increment() { count.add(1, ordering: .sequentiallyConsistent) }
}
