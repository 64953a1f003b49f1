import Foundation
import Testing
import TabStoreTestSupport
@testable import TabStoreKit

/// Opening a store makes the folders its file needs, as an app's first launch expects
/// (its container may have no `Application Support` folder yet), and only when it may
/// create the file.
@Suite struct DatabaseFolderTests {
    let folder = TemporaryFolder()

    @Test func missingFoldersAreMadeOwnerOnly() throws {
        let path = folder.file("Library/Application Support/tabs/tabs.sqlite")
        let store = try TabStore(path: path)
        try store.add(["Home"], to: "main", creatingSet: true)
        for made in ["Library", "Library/Application Support", "Library/Application Support/tabs"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.file(made))
            #expect(attributes[.posixPermissions] as? Int == 0o700, "\(made)")
        }
        #expect(try TabStore(path: path).tabSet(named: "main").tabs.map(\.title) == ["Home"])
    }

    @Test func aStoreThatMayNotCreateItsFileMakesNoFolder() throws {
        let path = folder.file("missing/tabs.sqlite")
        let error = thrownError { () throws(TabStoreError) in try TabStore(path: path, options: .init(createsMissingDatabase: false)) }
        #expect(error == .databaseNotFound(path: path))
        #expect(!FileManager.default.fileExists(atPath: folder.file("missing")))
    }

    /// `new/` names a folder: it was made, and then no file could be opened there.
    @Test func aPathEndingInASlashMakesNothing() throws {
        let path = folder.file("new/")
        let error = thrownError { () throws(TabStoreError) in try TabStore(path: path) }
        #expect(error == .cannotOpen(path: path, reason: "the path ends in /, so it names a folder, not a file"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("new")))
    }

    @Test func aFileWhereAFolderShouldBeIsSaidAndLeftAlone() throws {
        let file = folder.file("plain")
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        for path in [file + "/tabs.sqlite", file + "/sub/tabs.sqlite"] {
            let error = thrownError { () throws(TabStoreError) in try TabStore(path: path) }
            #expect(error == .cannotOpen(path: path, reason: "a part of its folder path is a file, not a folder"))
            #expect(error?.description == "cannot open database \(path): a part of its folder path is a file, not a folder")
        }
        #expect(contents(file) == Data("x".utf8))
    }

    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount a tmpfs (root in CI)"))
    func aFolderOnAReadOnlyFileSystemIsNamedWithTheReason() throws {
        let mount = try #require(TemporaryMount.tmpfs(kilobytes: 64))
        try #require(mount.remountReadOnly())
        let path = mount.path + "/app/tabs.sqlite"
        let error = thrownError { () throws(TabStoreError) in try TabStore(path: path) }
        #expect(error == .cannotOpen(path: path, reason: "cannot create its folder \(mount.path)/app: Read-only file system"))
    }
}
