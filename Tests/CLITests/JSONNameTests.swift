import Foundation
import Testing
@testable import TabStoreCLI
import TabStoreKit

/// One JSON name per concept: every command's output names its set `"set"`, and `info`
/// names the database as its text does (`"path"` for a file). The export document, a
/// file format of its own, keeps its `"name"`.
@Suite struct JSONNameTests {
    /// Each command line, run in order on one database, and the set its output names.
    static let commands: [(arguments: [String], set: String)] = [
        (["add", "main", "Home", "Reviews"], "main"),
        (["select", "main", "Reviews"], "main"),
        (["restore", "main"], "main"),
        (["list", "main"], "main"),
        (["move", "main", "Reviews", "0"], "main"),
        (["rename", "main", "Home", "Start"], "main"),
        (["set-data", "main", "Start", "route=/start"], "main"),
        (["remove", "main", "Start"], "main"),
        (["reopen", "main"], "main"),
        (["show", "main", "--width", "40"], "main"),
        (["history", "main", "--limit", "1"], "main"),
        (["rename-set", "main", "other"], "other"),
        (["remove-set", "other"], "other"),
    ]

    private static func object(_ output: Output) throws -> [String: Any] {
        #expect(output.code == 0 && output.stderr == "", "\(output)")
        return try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    }

    @Test func everyCommandNamesItsSetSet() throws {
        let sandbox = Sandbox()
        for (arguments, set) in Self.commands {
            let object = try Self.object(sandbox.runWithoutDatabase(["--json", "--db", sandbox.database] + arguments))
            #expect(object["set"] as? String == set, "\(arguments)")
            #expect(object["name"] == nil, "\(arguments)")
        }
    }

    @Test func listNamesEachSetSetAndTheExportDocumentKeepsItsName() throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        sandbox.add("other", "Map")
        let sets = try #require(try Self.object(sandbox.run("--json", "list"))["sets"] as? [[String: Any]])
        #expect(sets.map { $0["set"] as? String } == ["main", "other"])
        #expect(sets.allSatisfy { $0["name"] == nil })
        let document = try #require(try Self.object(sandbox.run("export"))["sets"] as? [[String: Any]])
        #expect(document.map { $0["name"] as? String } == ["main", "other"])
    }

    /// The shape the help texts show is the encoder's: the same keys, in the same order.
    @Test func theShapeInTheHelpIsWhatTheEncoderWrites() throws {
        let set = TabSet(name: "main", tabs: [Tab(title: "Home", isSelected: true, payload: ["route": "/home"])], revision: 1)
        guard case let .object(members) = JSONOutput.tabSet(set),
              case let .array(tabs)? = members.first(where: { $0.key == "tabs" })?.value,
              case let .object(tabMembers)? = tabs.first
        else { Issue.record("a set is not an object with a list of tabs"); return }
        let shown = JSONOutput.tabSetShape.matches(of: /"([A-Za-z]+)"/).map { String($0.output.1) }
        #expect(shown == members.map(\.key) + tabMembers.map(\.key))
        for command in ["add", "list", "move", "remove", "rename", "reopen", "set-data"] {
            #expect(HelpText.help(for: try #require(Program.spec.command(named: command)), program: Program.spec)
                .contains("\n  " + JSONOutput.tabSetShape + "\n"), "\(command)")
        }
    }

    @Test func infoNamesAFileItsPathAsTheTextDoes() throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        let object = try Self.object(sandbox.run("--json", "info"))
        #expect(Set(object.keys) == ["path", "schemaVersion", "setCount", "check"])
        #expect(object["path"] as? String == sandbox.database)
        #expect(sandbox.run("info").stdout.hasPrefix("path:            \(sandbox.database)\n"))
    }
}
