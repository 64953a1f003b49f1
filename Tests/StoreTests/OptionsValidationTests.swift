import Foundation
import Testing
@testable import TabStoreKit
import TabStorePostgres

/// Options no store can work with are refused when opening, naming the option, before
/// anything is created or connected.
@Suite struct OptionsValidationTests {
    let folder = TemporaryFolder()

    static let invalid: [(name: String, options: TabStore.Options, reason: String)] = [
        ("closedTabLimit", TabStore.Options(closedTabLimit: -1), "-1 is negative (0 remembers no removed tab)"),
        ("busyTimeout", TabStore.Options(busyTimeout: .milliseconds(-5)), "-0.005 seconds is negative (0 does not wait)"),
        ("changePollInterval", TabStore.Options(changePollInterval: .zero), "0.0 seconds is not more than zero"),
        ("serverTimeout", TabStore.Options(serverTimeout: .seconds(-1)), "-1.0 seconds is not more than zero"),
        ("failoverWindow", TabStore.Options(failoverWindow: .seconds(-2)), "-2.0 seconds is negative (0 tries once)"),
    ]

    @Test(arguments: 0..<invalid.count)
    func anInvalidOptionIsRefusedBeforeAnythingIsMade(index: Int) throws {
        let (name, options, reason) = Self.invalid[index]
        let path = folder.file("new/tabs.sqlite")
        let refusal = thrownError { () throws(TabStoreError) in try TabStore(path: path, options: options) }
        #expect(refusal == TabStoreError(.invalidOption(name: name, reason: reason)))
        #expect(refusal?.description == "invalid option \(name): \(reason)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("new")))
        // A server is never reached: the URL names no host that exists.
        #expect(thrownError { () throws(TabStoreError) in try TabStore(postgresURL: "postgresql://nowhere.invalid/tabs", options: options) }
            == TabStoreError(.invalidOption(name: name, reason: reason)))
    }

    @Test func theLimitsThemselvesAreAccepted() throws {
        let options = TabStore.Options(busyTimeout: .zero, closedTabLimit: 0, failoverWindow: .zero)
        let store = try TabStore(path: folder.file(), options: options)
        try store.add(["A", "B"], to: "main", creatingSet: true)
        try store.remove([.title("B")], from: "main")
        // closedTabLimit 0: nothing to reopen.
        #expect(thrownError { () throws(TabStoreError) in try store.reopen(in: "main") } == TabStoreError(.noClosedTabs(set: "main")))
    }
}
