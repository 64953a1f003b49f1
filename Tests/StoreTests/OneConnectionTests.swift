#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TabStoreKit

/// `concurrentReads: false`: one connection to the file serves reads and writes, and
/// observers still follow the file.
@Suite struct OneConnectionTests {
    let folder = TemporaryFolder()

    @Test(arguments: [true, false])
    func readsOpenASecondConnectionOnlyWhenConcurrent(concurrentReads: Bool) throws {
        let path = folder.file()
        var options = TabStore.Options()
        options.concurrentReads = concurrentReads
        let store = try TabStore(path: path, options: options)
        try store.add(["A", "B"], to: "main", creatingSet: true)
        #expect(try picture(store.tabSet(named: "main")) == ["*A", "B"])
        #expect(try store.selectedTab(in: "main").index == 0)
        #expect(openDescriptors(of: path) == (concurrentReads ? 2 : 1))
    }

    @Test func anObserverOnOneConnectionHearsAnotherConnectionsWriteThroughTheFile() async throws {
        let path = folder.file()
        // Polling once an hour: only the file's notification can bring the change in time.
        var options = TabStore.Options(changePollInterval: .seconds(3600))
        options.concurrentReads = false
        let observing = try TabStore(path: path, options: options)
        try await observing.write { try $0.add(["A", "B"], to: "main", creatingSet: true) }
        let changes = observing.changes(in: "main")
        let writing = try TabStore(path: path)
        try await writing.write { try $0.select(.index(1), in: "main") }
        let received = try await first(1, of: changes)
        #expect(received.map(\.event.ignoringIDs) == [
            .selectionChanged([
                TabUpdate(index: 0, tab: Tab(id: .unknown, title: "A", isSelected: false)),
                TabUpdate(index: 1, tab: Tab(id: .unknown, title: "B", isSelected: true)),
            ]),
        ])
    }

    /// How many of this process's file descriptors are open on `path` itself.
    private func openDescriptors(of path: String) -> Int {
        guard let folder = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(folder) }
        let target = realPath(path)
        var count = 0
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if realPath("/proc/self/fd/" + name) == target { count += 1 }
        }
        return count
    }

    private func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
