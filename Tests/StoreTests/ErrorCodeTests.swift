import Foundation
import Testing
import TabStoreKit

/// A caller matches an error by its code: a value that compares, a pattern in `catch`
/// and `switch`, a name that stays. The details and the sentence travel with it.
@Suite struct ErrorCodeTests {
    let folder = TemporaryFolder()

    @Test func aRefusedCallsErrorMatchesByItsCodeAndSaysWhatWentWrong() throws {
        let store = try TabStore(path: folder.file())
        try store.add(["Home", "Reviews"], to: "main", creatingSet: true)
        var caught: [String] = []
        do {
            try store.select(9, in: "main")
        } catch .setNotFound {
            caught.append("not found")
        } catch TabStoreError.Code.indexOutOfRange {
            caught.append("out of range")
        } catch {
            caught.append("other: \(error)")
        }
        do {
            try store.select(0, in: "elsewhere")
        } catch {
            switch error.code {
            case .indexOutOfRange: caught.append("out of range")
            case .setNotFound: caught.append("not found: \(error)")
            default: caught.append("other: \(error)")
            }
            #expect(!error.isDatabaseProblem)
        }
        #expect(caught == ["out of range", #"not found: no tab set named "elsewhere""#])
    }

    @Test func aCodeIsItsNameAndTheSameCodeWhateverTheDetails() throws {
        let busyHere = TabStoreError(.busy(path: "/a")), busyThere = TabStoreError(.busy(path: "/b"))
        #expect(busyHere != busyThere)
        #expect(busyHere.code == busyThere.code)
        #expect(busyHere.code == TabStoreError.Code(rawValue: "busy"))
        #expect(busyHere.code.description == "busy")
        #expect(busyHere.isDatabaseProblem)
        #expect(TabStoreError(.emptyPayloadKey).code.rawValue == "emptyPayloadKey")
        #expect(TabStoreError(.setNotFound(set: "s")).code != TabStoreError(.setAlreadyExists(set: "s")).code)
        #expect(TabStoreError(.offsetOutOfRange(offset: 7, count: 4, set: "s")).code.rawValue == "offsetOutOfRange")
        #expect(TabStoreError(.insertionOffsetOutOfRange(offset: 7, count: 4, set: "s")).code.rawValue == "insertionOffsetOutOfRange")
        #expect(TabStoreError(.offsetOutOfRange(offset: 7, count: 4, set: "s")).code != TabStoreError(.indexOutOfRange(index: 7, count: 4, set: "s")).code)
    }

    /// An app writes an error for a person or for JSON from its public parts: the name as
    /// stored in JSON, made visible (and a long one shortened) for a terminal or a log.
    @Test func anErrorsMessageIsWrittenForAPersonOrForJSONFromItsParts() throws {
        let store = try TabStore(path: folder.file())
        let hostile = "tab\u{1B}[2J"
        let long = String(repeating: "x", count: 61)
        var messages: [ErrorMessage] = []
        for name in [hostile, long] {
            do {
                _ = try store.tabSet(named: name)
            } catch {
                messages.append(error.message)
                #expect(error.description == error.message.shown)
            }
        }
        #expect(messages.map(\.parts) == [
            [.wording("no tab set named "), .name(ErrorMessage.Name(hostile, limit: 60))],
            [.wording("no tab set named "), .name(ErrorMessage.Name(long, limit: 60))],
        ])
        #expect(messages.map(\.shown) == [
            #"no tab set named "tab\u{1b}[2J""#,
            "no tab set named \"" + String(repeating: "x", count: 60) + "…\"",
        ])
        #expect(messages.map(\.plain) == ["no tab set named \"\(hostile)\"", "no tab set named \"\(long)\""])
        #expect(VisibleText.original(of: VisibleText.shown(hostile)) == hostile)
    }

    /// Each row of the table names its code beside its case: the code is the name the case
    /// is written under in JSON, and a code names one case.
    @Test func everyReasonsCodeIsItsOwnName() throws {
        let id = try #require(TabID("0f8fad5b-d9cb-469f-a165-70867728950e"))
        let errors: [TabStoreError] = [
            TabStoreError(.setNotFound(set: "s")), TabStoreError(.setAlreadyExists(set: "a")), TabStoreError(.tabNotFound(title: "t", set: "s")),
            TabStoreError(.tabIDNotFound(id: id, set: "s")), TabStoreError(.indexOutOfRange(index: 3, count: 0, set: "s")),
            TabStoreError(.indexTextOutOfRange(index: "999", count: 0, set: "s")),
            TabStoreError(.ambiguousTab(text: "2", indexedTitle: "Two", titledIndex: 0, set: "s")),
            TabStoreError(.insertionIndexOutOfRange(index: 9, count: 2, set: "s")),
            TabStoreError(.insertionIndexTextOutOfRange(index: "-99", count: 0, set: "s")),
            TabStoreError(.offsetOutOfRange(offset: 3, count: 0, set: "s")),
            TabStoreError(.insertionOffsetOutOfRange(offset: 3, count: 0, set: "s")), TabStoreError(.duplicateTitle(title: "t", set: "s")),
            TabStoreError(.repeatedTitle(title: "t")), TabStoreError(.invalidTitle(title: "", problem: .empty)),
            TabStoreError(.invalidSetName(name: " ", problem: .noVisibleCharacter)), TabStoreError(.emptySet(set: "s")),
            TabStoreError(.revisionMismatch(set: "s", expected: 9, actual: 3)), TabStoreError(.missingSetRevision(set: "s", expected: 2, actual: 0)),
            TabStoreError(.noClosedTabs(set: "s")), TabStoreError(.payloadTooLarge(bytes: 9, limit: 8)), TabStoreError(.emptyPayloadKey),
            TabStoreError(.invalidPayload(reason: "r\u{7}")), TabStoreError(.payloadContainsNUL(key: "k", inValue: true)),
            TabStoreError(.invalidDocument(reason: "r")), TabStoreError(.tabIDInUse(id: id, set: "s", place: "")),
            TabStoreError(.backupNeedsFile(database: "postgresql://u@h:5432/d")),
            TabStoreError(.syncNeedsAFile(database: "postgresql://u@h:5432/d")), TabStoreError(.syncNotStarted(path: "/p")),
            TabStoreError(.syncsWithAnotherServer(path: "/p", server: "x")), TabStoreError(.deviceAndServer(path: "/p")),
            TabStoreError(.invalidMutation(reason: "r")), TabStoreError(.replacesUnseenTabs(set: "s", count: 1)),
            TabStoreError(.schemaTooNew(path: "/p", found: 9, supported: 8)), TabStoreError(.notATabStore(path: "/p")),
            TabStoreError(.foreignSchema(path: "/p", version: 3, difference: TabStoreError.SchemaDifference(kind: .extra, objectType: "index", name: "i"))),
            TabStoreError(.notADatabase(path: "/p")), TabStoreError(.corrupt(path: "/p")), TabStoreError(.readOnly(path: "/p")),
            TabStoreError(.folderNotWritable(path: "/p", folder: "/", forWriting: true)),
            TabStoreError(.sideFilesNotWritable(path: "/p", walIsEmpty: true)), TabStoreError(.cannotFollowChanges(path: "/p", reason: "r")),
            TabStoreError(.diskFull(path: "/p")), TabStoreError(.busy(path: "/p")), TabStoreError(.cannotOpen(path: "", reason: "r")),
            TabStoreError(.damagedSet(set: "s", damage: .noSelectedTab)), TabStoreError(.damagedSyncLog(path: "/p", mutation: 0)),
            TabStoreError(.fileExists(path: "/p")), TabStoreError(.notARegularFile(path: "/p", kind: .directory)),
            TabStoreError(.fileIsTheDatabase(path: "/p")), TabStoreError(.cannotWrite(path: "", reason: "r")),
            TabStoreError(.databaseNotFound(path: "/p")), TabStoreError(.invalidOption(name: "n", reason: "r")),
            TabStoreError(.sqlite(path: "/p", code: 19, message: "m", sql: "SELECT")), TabStoreError(.postgresLibraryMissing(reason: "r")),
            TabStoreError(.invalidDatabaseURL(url: "u", reason: "r")), TabStoreError(.serverUnavailable(server: "sv", reason: "r")),
            TabStoreError(.connectionLost(server: "sv", outcomeUnknown: true)),
            TabStoreError(.server(server: "sv", sqlState: "23505", message: "m", sql: "s")),
            TabStoreError(.serverNotAnswering(server: "sv", seconds: 6, outcomeUnknown: true)), TabStoreError(.standby(server: "sv")),
            TabStoreError(.permissionDenied(server: "sv", role: "r", privilege: "", object: "")),
            TabStoreError(.notUTF8(server: "sv", encoding: "LATIN1")), TabStoreError(.schemaNotFound(server: "sv", schema: "x")),
            TabStoreError(.internalFailure(database: "d", reason: "r")), TabStoreError(.editCancelled(set: "s")),
            TabStoreError(.tooManyPendingEdits(set: "s", limit: 64)), TabStoreError(.invalidSyncMessage(reason: "r")),
            TabStoreError(.syncLimitExceeded(limit: "bytes", maximum: 10, found: 12)),
            TabStoreError(.syncVersionNotSupported(version: 9, readable: [1, 2])), TabStoreError(.deviceCopied(device: "dv", number: 4)),
            TabStoreError(.serverBehind(server: "sv", device: "dv", serverSettled: 3, settled: 5)),
        ]
        var codes: Set<TabStoreError.Code> = []
        for error in errors {
            let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(error)) as? [String: [String: Any]]
            #expect(json?["reason"].map { Array($0.keys) } == [error.code.rawValue])
            #expect(codes.insert(error.code).inserted, "\(error.code)")
        }
    }
}
