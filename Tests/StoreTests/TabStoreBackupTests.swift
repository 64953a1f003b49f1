import Foundation
import Testing
@testable import TabStoreKit

/// `backup(to:replacing: true)` replaced whatever was at the path (a FIFO, a symbolic
/// link) and gave a replaced 0600 file the mode 0644.
@Suite struct TabStoreBackupTests {
    private func store(in folder: TemporaryFolder) throws -> TabStore {
        let store = try TabStore(path: folder.file())
        try store.add(["Home", "Reviews"], to: "main", creatingSet: true)
        return store
    }

    @Test func onlyARegularFileIsReplaced() throws {
        let folder = TemporaryFolder()
        let store = try store(in: folder)
        let pipe = folder.file("pipe")
        try #require(mkfifo(pipe, 0o600) == 0)
        let link = folder.file("link")
        let target = folder.file("target")
        _ = FileManager.default.createFile(atPath: target, contents: Data("target\n".utf8))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()

        #expect(thrownError { () throws(TabStoreError) in try store.backup(to: pipe, replacing: true) } == TabStoreError(.notARegularFile(path: pipe, kind: .namedPipe)))
        #expect(thrownError { () throws(TabStoreError) in try store.backup(to: link, replacing: true) } == TabStoreError(.notARegularFile(path: link, kind: .symbolicLink)))
        #expect(thrownError { () throws(TabStoreError) in try store.backup(to: folder.path, replacing: true) } == TabStoreError(.notARegularFile(path: folder.path, kind: .directory)))
        #expect(thrownError { () throws(TabStoreError) in try store.backup(to: link) } == TabStoreError(.notARegularFile(path: link, kind: .symbolicLink)))
        #expect(TabStoreError(.notARegularFile(path: pipe, kind: .namedPipe)).description
            == "cannot replace \(pipe): it is a named pipe, not a regular file")
        #expect(!TabStoreError(.notARegularFile(path: pipe, kind: .namedPipe)).isDatabaseProblem)

        var status = stat()
        #expect(lstat(pipe, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(FileManager.default.contents(atPath: target) == Data("target\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == entries)
    }

    @Test(arguments: [0o600, 0o640] as [mode_t])
    func aReplacedFileKeepsItsMode(original: mode_t) throws {
        let folder = TemporaryFolder()
        let store = try store(in: folder)
        let copy = folder.file("copy.sqlite")
        _ = FileManager.default.createFile(atPath: copy, contents: Data("old\n".utf8))
        try #require(chmod(copy, original) == 0)
        try store.backup(to: copy, replacing: true)
        var status = stat()
        #expect(stat(copy, &status) == 0 && status.st_mode & 0o7777 == original)
        #expect(picture(try TabStore(path: copy).tabSet(named: "main")) == ["*Home", "Reviews"])
    }
}
