import Foundation
import Testing
import TabStoreKit

/// What the CLI asks of the library, through the public API any app has: an error's
/// details, a name copied from shown output, a sync's precondition, a select that does
/// not work out the set, and a file written whole.
@Suite struct CallerAPITests {
    let folder = TemporaryFolder()

    private struct Details: Equatable, CustomStringConvertible {
        var setName: String?, title: String?, index: Int?, tabCount: Int?, server: String?, secondsWaited: Int?

        init(_ error: TabStoreError) {
            (setName, title, index, tabCount) = (error.setName, error.title, error.index, error.tabCount)
            (server, secondsWaited) = (error.server, error.secondsWaited)
        }

        init(setName: String? = nil, title: String? = nil, index: Int? = nil, tabCount: Int? = nil, server: String? = nil, secondsWaited: Int? = nil) {
            (self.setName, self.title, self.index, self.tabCount) = (setName, title, index, tabCount)
            (self.server, self.secondsWaited) = (server, secondsWaited)
        }

        var description: String { "\([setName, title, index.map(String.init), tabCount.map(String.init), server, secondsWaited.map(String.init)])" }
    }

    /// Each detail is there for the codes that carry it, and `nil` for every other.
    @Test func anErrorsDetailsAreItsFieldsAndNilWhereItHasNone() {
        let server = "postgresql://app@db:5432/tabs"
        let cases: [(TabStoreError, Details)] = [
            (TabStoreError(.setNotFound(set: "main")), Details(setName: "main")),
            (TabStoreError(.tabNotFound(title: "Map", set: "main")), Details(setName: "main", title: "Map")),
            (TabStoreError(.indexOutOfRange(index: 9, count: 2, set: "main")), Details(setName: "main", index: 9, tabCount: 2)),
            (TabStoreError(.indexTextOutOfRange(index: "99999999999999999999", count: 2, set: "main")), Details(setName: "main", tabCount: 2)),
            (TabStoreError(.insertionIndexOutOfRange(index: -4, count: 3, set: "s")), Details(setName: "s", index: -4, tabCount: 3)),
            (TabStoreError(.insertionIndexTextOutOfRange(index: "-99999999999999999999", count: 3, set: "s")), Details(setName: "s", tabCount: 3)),
            (TabStoreError(.offsetOutOfRange(offset: -1, count: 3, set: "s")), Details(setName: "s", index: -1, tabCount: 3)),
            (TabStoreError(.insertionOffsetOutOfRange(offset: 7, count: 3, set: "s")), Details(setName: "s", index: 7, tabCount: 3)),
            (TabStoreError(.duplicateTitle(title: "Home", set: "main")), Details(setName: "main", title: "Home")),
            (TabStoreError(.repeatedTitle(title: "Home")), Details(title: "Home")),
            (TabStoreError(.invalidTitle(title: "", problem: .empty)), Details(title: "")),
            (TabStoreError(.invalidSetName(name: "a\u{7F}", problem: .controlCharacter(scalar: 0x7F))), Details(setName: "a\u{7F}")),
            (TabStoreError(.revisionMismatch(set: "main", expected: 3, actual: 4)), Details(setName: "main")),
            (TabStoreError(.tooManyPendingEdits(set: "main", limit: 64)), Details(setName: "main")),
            (TabStoreError(.serverUnavailable(server: server, reason: "refused")), Details(server: server)),
            (TabStoreError(.connectionLost(server: server, outcomeUnknown: true)), Details(server: server)),
            (TabStoreError(.serverNotAnswering(server: server, seconds: 6, outcomeUnknown: false)), Details(server: server, secondsWaited: 6)),
            (TabStoreError(.standby(server: server)), Details(server: server)),
            (TabStoreError(.busy(path: "/tmp/tabs.sqlite")), Details()),
            (TabStoreError(.emptyPayloadKey), Details()),
            (TabStoreError(.syncsWithAnotherServer(path: "/tmp/tabs.sqlite", server: "elsewhere")), Details()),
        ]
        for (error, expected) in cases {
            #expect(Details(error) == expected, "\(error.code)")
        }
    }

    /// A refusal from a real call carries the same details as the error it equals.
    @Test func aRefusedSelectNamesTheIndexTheSetAndItsTabCount() throws {
        let store = try TabStore(path: folder.file())
        try store.add(["Home", "Reviews"], to: "main", creatingSet: true)
        let error = try #require(thrownError { () throws(TabStoreError) in try store.select(9, in: "main") })
        #expect(error == TabStoreError(.indexOutOfRange(index: 9, count: 2, set: "main")))
        #expect(Details(error) == Details(setName: "main", index: 9, tabCount: 2))
    }

    /// A name holds an escape exactly when reading it back as shown output gives other text.
    @Test func aNameContainsAnEscapeWhenItReadsBackAsOtherText() {
        let cases: [(String, Bool)] = [
            (#"a\tb"#, true), ("a\tb", false), (#"x\u{1b}[2J"#, true), (#"x\u{1B}"#, true), (#"\\"#, true),
            (#"C:\Users"#, false), (#"\"#, false), ("plain", false), ("e\u{301}", false), ("é", false),
        ]
        for (text, expected) in cases {
            #expect(VisibleText.containsEscape(text) == expected, "\(VisibleText.shown(text))")
            #expect(VisibleText.containsEscape(text) == (Array(VisibleText.original(of: text).utf8) != Array(text.utf8)))
        }
        // What `shown` writes for a text that needs escapes holds one; the text itself (no backslash) does not.
        for hostile in ["tab\u{1B}[2J", "a\nb", "\u{202E}abc"] {
            #expect(VisibleText.containsEscape(VisibleText.shown(hostile)))
            #expect(!VisibleText.containsEscape(hostile))
        }
    }

    /// A sync with a server by its name refuses what `startSync` would before the server is
    /// opened, and compares the server's name byte for byte.
    @Test func aDeviceChecksItsServerBeforeSyncing() throws {
        let path = folder.file()
        let device = try TabStore(path: path)
        var opened = 0
        func opening(_ creating: Bool) throws(TabStoreError) -> TabStore {
            opened += 1
            return try TabStore.inMemory()
        }
        try device.startSync(server: "/srv/caf\u{E9}.sqlite")
        #expect(thrownError { () throws(TabStoreError) in try device.sync(withServerNamed: "/srv/other.sqlite", opening: opening) }
            == TabStoreError(.syncsWithAnotherServer(path: path, server: "/srv/caf\u{E9}.sqlite")))
        // Canonically equivalent to the stored name, and other bytes: another server.
        #expect(thrownError { () throws(TabStoreError) in try device.sync(withServerNamed: "/srv/cafe\u{301}.sqlite", opening: opening) }
            == TabStoreError(.syncsWithAnotherServer(path: path, server: "/srv/caf\u{E9}.sqlite")))
        #expect(thrownError { () throws(TabStoreError) in try device.startSync(server: "/srv/cafe\u{301}.sqlite") }
            == TabStoreError(.syncsWithAnotherServer(path: path, server: "/srv/caf\u{E9}.sqlite")))
        #expect(opened == 0)
        #expect(try device.syncStatus().server == "/srv/caf\u{E9}.sqlite")
    }

    /// `selectOnly` does what `select` does, and returns the same change without the set.
    @Test func selectOnlyChangesWhatSelectChangesAndReturnsTheSameChange() throws {
        let selecting = try TabStore(path: folder.file("a.sqlite"))
        let twin = try TabStore(path: folder.file("b.sqlite"))
        for store in [selecting, twin] {
            try store.add(["Home", "Reviews", "Map"], to: "main", creatingSet: true)
        }
        let selection = try selecting.selectOnly(.title("Map"), in: "main")
        let change = try twin.select(.title("Map"), in: "main")
        #expect(selection.setName == change.setName)
        #expect([selection.previousIndex, selection.selectedIndex, selection.revision] == [0, 2, change.revision] as [Int])
        #expect([change.previousIndex, change.selectedIndex] == [0, 2] as [Int])
        #expect(selection.selectedTab.title == "Map")
        #expect(selection.selectedTab.title == change.selectedTab.title && selection.selectedTab.isSelected)
        #expect(selection.updates.map(\.index) == change.updates.map(\.index))
        #expect(selection.updates.map { [String($0.index), $0.tab.title, String($0.tab.isSelected)] }
            == [["0", "Home", "false"], ["2", "Map", "true"]])
        #expect(!selection.isReselection)
        #expect(try picture(selecting.tabSet(named: "main")) == ["Home", "Reviews", "*Map"])
        #expect(try picture(twin.tabSet(named: "main")) == ["Home", "Reviews", "*Map"])

        let again = try selecting.selectOnly(2, in: "main")
        #expect(again.isReselection)
        #expect(again.revision == selection.revision)
        #expect(try selecting.tabSet(named: "main").revision == selection.revision)
    }

    /// A file is written whole, never over the store's own files, and replaces only when asked.
    @Test func writeFileWritesTheBytesWholeAndSparesTheDatabase() throws {
        let path = folder.file()
        let store = try TabStore(path: path)
        try store.add(["Home"], to: "main", creatingSet: true)
        let output = folder.file("export.json")
        let bytes = (0..<(5 << 19)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var reported: [[Int]] = []
        try store.writeFile(bytes, to: output) { reported.append([$0.writtenBytes, $0.byteCount]) }
        let expected: [[Int]] = [[1 << 20, 5 << 19], [2 << 20, 5 << 19], [5 << 19, 5 << 19]]
        #expect(reported == expected)
        #expect(FileManager.default.contents(atPath: output).map(Array.init) == bytes)

        #expect(thrownError { () throws(TabStoreError) in try store.writeFile([1], to: output) } == TabStoreError(.fileExists(path: output)))
        try #require(chmod(output, 0o600) == 0)
        try store.writeFile([1, 2, 3], to: output, replacing: true)
        #expect(FileManager.default.contents(atPath: output).map(Array.init) == [1, 2, 3])
        var status = stat()
        #expect(stat(output, &status) == 0 && status.st_mode & 0o777 == 0o600)

        for own in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: own) {
            #expect(thrownError { () throws(TabStoreError) in try store.writeFile([0], to: own, replacing: true) } == TabStoreError(.fileIsTheDatabase(path: own)))
        }
        #expect(try store.tabSet(named: "main").tabs.map(\.title) == ["Home"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") } == [])
    }

    /// The first observer of a store is handed every change the journal holds.
    @Test func changesFromJournalStartBeginsAtTheFirstChange() async throws {
        let store = try Self.storeWithTwoChanges(at: folder.file())
        #expect(store.changesUnseen == nil)
        #expect(TabStore.observationCanStart(sparing: 4))
        var revisions: [Int] = []
        for try await change in store.changesFromJournalStart(in: "main") {
            revisions.append(change.revision)
            if revisions.count == 2 { break }
        }
        #expect(revisions == [1, 2])
    }

    private static func storeWithTwoChanges(at path: String) throws -> TabStore {
        let store = try TabStore(path: path)
        try store.add(["Home", "Reviews"], to: "main", creatingSet: true)
        try store.select(1, in: "main")
        return store
    }
}
