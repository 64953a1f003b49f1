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
}
