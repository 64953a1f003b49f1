import Foundation
import Testing
import TabStoreTestSupport
import TabStoreKit

/// A path that names no file (empty, or holding a NUL, after which the system would read
/// no further) is refused wherever the library takes one, and nothing is made: not the file
/// the path names up to its NUL, not a folder, not a temporary database.
@Suite struct UnusablePathTests {
    let folder = TemporaryFolder()

    /// Paths with a NUL at every place of a real one: in a folder's name, in the file's,
    /// at its start and its end.
    var pathsWithANul: [String] {
        let path = folder.file("new/tabs.sqlite")
        return path.indices.map { place in
            var spelled = path
            spelled.insert("\u{0}", at: place)
            return spelled
        } + [path + "\u{0}"]
    }

    /// What is in the sandbox, below its folder.
    func madeFiles() throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func openingIsRefused() throws {
        #expect(thrownError { () throws(TabStoreError) in try TabStore(path: "") }
            == TabStoreError(.cannotOpen(path: "", reason: "the path is empty")))
        #expect(thrownError { () throws(TabStoreError) in try TabStore(path: "") }?.description
            == "cannot open a database: the path is empty")
        for path in pathsWithANul {
            #expect(thrownError { () throws(TabStoreError) in try TabStore(path: path) }
                == TabStoreError(.cannotOpen(path: path, reason: "the path holds a NUL character, which no file name can")))
        }
        #expect(try madeFiles() == [])
    }

    @Test func backingUpAndWritingAFileAreRefused() throws {
        let store = try TabStore(path: folder.file("tabs.sqlite"))
        try store.add(["Home"], to: "main", creatingSet: true)
        let before = try madeFiles()
        for path in [""] + pathsWithANul {
            let reason = path.isEmpty ? "the path is empty" : "the path holds a NUL character, which no file name can"
            #expect(thrownError { () throws(TabStoreError) in try store.backup(to: path) } == TabStoreError(.cannotWrite(path: path, reason: reason)))
            #expect(thrownError { () throws(TabStoreError) in try store.writeFile([1, 2], to: path) } == TabStoreError(.cannotWrite(path: path, reason: reason)))
        }
        #expect(thrownError { () throws(TabStoreError) in try store.backup(to: "") }?.description == "cannot write a file: the path is empty")
        #expect(thrownError { () throws(TabStoreError) in try store.writeFile([1, 2], to: "") }?.description
            == "cannot write a file: the path is empty")
        #expect(try madeFiles() == before)
    }
}
