import Foundation
@testable import TabStoreKit

/// A fresh folder for one test's database files, removed when the test ends.
final class TemporaryFolder {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "tabstore-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path inside the folder.
    func file(_ name: String = "tabs.sqlite") -> String { path + "/" + name }
}

/// The titles of a set in order, with `*` before the selected one: a whole state in one value.
func picture(_ set: TabSet) -> [String] {
    set.tabs.map { ($0.isSelected ? "*" : "") + $0.title }
}

func picture(_ edit: TabSetEdit) -> [String] {
    picture(edit.set)
}

/// The error a throwing call threw, or nil when it returned.
func thrownError<T>(_ body: () throws(TabStoreError) -> T) -> TabStoreError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// How many times a file store's writer has begun to wait for another connection's lock:
/// a test waits for it to grow before acting on a write that waits for a lock.
func lockWaitsBegun(_ store: TabStore) -> Int {
    (store.backend as? SQLiteBackend)?.writerLockWait?.waitsBegun ?? 0
}

/// The bytes of a file, to prove a failed call left it untouched.
func contents(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}

/// Every set of a store as its name and its tabs ("*title id payload", the selected one
/// starred), revisions aside (each store has its own): what two stores must agree on after
/// a sync.
func everyTab(of store: TabStore) throws -> [String: [String]] {
    Dictionary(uniqueKeysWithValues: try store.tabSets().map { summary in
        let set = try store.tabSet(named: summary.name)
        return (set.name, set.tabs.map { "\($0.isSelected ? "*" : "")\($0.title) \($0.id) \($0.payload.sorted { $0.key < $1.key })" })
    })
}
