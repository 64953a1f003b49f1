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
        #expect(error == TabStoreError(.databaseNotFound(path: path)))
        #expect(!FileManager.default.fileExists(atPath: folder.file("missing")))
    }

    /// `new/` names a folder: it was made, and then no file could be opened there.
    @Test func aPathEndingInASlashMakesNothing() throws {
        let path = folder.file("new/")
        let error = thrownError { () throws(TabStoreError) in try TabStore(path: path) }
        #expect(error == TabStoreError(.cannotOpen(path: path, reason: "the path ends in /, so it names a folder, not a file")))
        #expect(!FileManager.default.fileExists(atPath: folder.file("new")))
    }

    @Test func aFileWhereAFolderShouldBeIsSaidAndLeftAlone() throws {
        let file = folder.file("plain")
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        for path in [file + "/tabs.sqlite", file + "/sub/tabs.sqlite"] {
            let error = thrownError { () throws(TabStoreError) in try TabStore(path: path) }
            #expect(error == TabStoreError(.cannotOpen(path: path, reason: "a part of its folder path is a file, not a folder")))
            #expect(error?.description == "cannot open database \(path): a part of its folder path is a file, not a folder")
        }
        #expect(contents(file) == Data("x".utf8))
    }

    /// Folders made for a database whose file then cannot be made (no inode is left for it)
    /// are removed: a refused open leaves nothing behind.
    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount a tmpfs (root in CI)"))
    func foldersMadeForADatabaseThatCannotBeMadeAreRemoved() throws {
        // The root and the two folders take the three inodes.
        let mount = try #require(TemporaryMount.tmpfs(kilobytes: 64, inodes: 3))
        let path = mount.path + "/app/tabs/tabs.sqlite"
        let error = thrownError { () throws(TabStoreError) in try TabStore(path: path) }
        #expect(error?.code == .cannotOpen, "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: mount.path) == [])
        // With an inode for the file too, the same open makes them all.
        let roomier = try #require(TemporaryMount.tmpfs(kilobytes: 256, inodes: 16))
        _ = try TabStore(path: roomier.path + "/app/tabs/tabs.sqlite")
        #expect(try FileManager.default.contentsOfDirectory(atPath: roomier.path + "/app") == ["tabs"])
    }

    /// Past the system's limits a path is refused by what is wrong, before anything is made.
    @Test func aPathPastTheSystemsLimitsIsRefusedAndMakesNothing() throws {
        let longName = String(repeating: "a", count: 256)
        let pathWithALongName = folder.file("new/" + longName + "/tabs.sqlite")
        #expect(thrownError { () throws(TabStoreError) in try TabStore(path: pathWithALongName) }
            == TabStoreError(.cannotOpen(path: pathWithALongName, reason: "a name in the path is 256 bytes long, more than the 255 a file or folder name can have")))
        let longPath = folder.file(String(repeating: "folder/", count: 600) + "tabs.sqlite")
        #expect(thrownError { () throws(TabStoreError) in try TabStore(path: longPath) }
            == TabStoreError(.cannotOpen(path: longPath, reason: "the path is \(longPath.utf8.count) bytes long, more than the 4095 the system takes")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount a tmpfs (root in CI)"))
    func aFolderOnAReadOnlyFileSystemIsNamedWithTheReason() throws {
        let mount = try #require(TemporaryMount.tmpfs(kilobytes: 64))
        try #require(mount.remountReadOnly())
        let path = mount.path + "/app/tabs.sqlite"
        let error = thrownError { () throws(TabStoreError) in try TabStore(path: path) }
        #expect(error == TabStoreError(.cannotOpen(path: path, reason: "cannot create its folder \(mount.path)/app: Read-only file system")))
    }
}
