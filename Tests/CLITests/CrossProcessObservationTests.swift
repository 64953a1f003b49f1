import Testing
import TabStoreKit

/// An app's value observer sees what another process (here the `tabstore`
/// command) commits, as values, in order, none lost, woken by file notifications: the
/// poll interval is ten minutes, so nothing else could bring them in time.
@Suite struct CrossProcessObservationTests {
    private func titles(_ set: TabSet?) -> [String] {
        set?.tabs.map { ($0.isSelected ? "*" : "") + $0.title } ?? []
    }

    @Test(.timeLimit(.minutes(5)))
    func anotherProcesssEditsArriveAsValuesInOrderWithNoneLost() async throws {
        let sandbox = Sandbox()
        _ = sandbox.run("add", "main", "A", "B", "C")
        let options = TabStore.Options(durability: .normal, changePollInterval: .seconds(600))
        let store = try TabStore(path: sandbox.database, options: options)
        var values = store.observe("main").makeAsyncIterator()
        #expect(titles(try await values.next() ?? nil) == ["*A", "B", "C"])
        let edits: [([String], [String])] = [
            (["select", "main", "C"], ["A", "B", "*C"]),
            (["move", "main", "C", "0"], ["*C", "A", "B"]),
            (["remove", "main", "A"], ["*C", "B"]),
            (["reopen", "main"], ["*C", "A", "B"]),
            (["rename", "main", "B", "Blue"], ["*C", "A", "Blue"]),
        ]
        for (command, expected) in edits {
            #expect(sandbox.runWithoutDatabase(["--db", sandbox.database] + command).code == 0)
            #expect(titles(try await values.next() ?? nil) == expected, "\(command)")
        }
    }
}
