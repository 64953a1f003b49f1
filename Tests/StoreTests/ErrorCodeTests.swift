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
        let busyHere = TabStoreError.busy(path: "/a"), busyThere = TabStoreError.busy(path: "/b")
        #expect(busyHere != busyThere)
        #expect(busyHere.code == busyThere.code)
        #expect(busyHere.code == TabStoreError.Code(rawValue: "busy"))
        #expect(busyHere.code.description == "busy")
        #expect(busyHere.isDatabaseProblem)
        #expect(TabStoreError.emptyPayloadKey.code.rawValue == "emptyPayloadKey")
        #expect(TabStoreError.setNotFound(set: "s").code != TabStoreError.setAlreadyExists(set: "s").code)
    }
}
