import Testing
import TabStoreKit
import TabStoreTestSupport
@testable import TabStorePostgres

/// Every request of every command is inside the failover window: a connection cut at any
/// one of them, before the server got it or after it ran it (its answer lost), with the
/// server reachable again at once, changes nothing the command returns or leaves behind,
/// and no write is applied twice.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct CutConnectionTests {
    /// A command as the CLI runs it: open a store, then one call; what it returned, as text.
    struct Command: Sendable, CustomTestStringConvertible {
        let name: String
        let run: @Sendable (TabStore, String) throws -> String
        var testDescription: String { name }

        init(_ name: String, _ run: @escaping @Sendable (TabStore, String) throws -> String) {
            self.name = name
            self.run = run
        }
    }

    static func shown(_ set: TabSet) -> String {
        set.name + " r\(set.revision): " + set.tabs.map { ($0.isSelected ? "*" : "") + $0.title }.joined(separator: " ")
    }

    static let commands: [Command] = [
        Command("select") { store, set in shown(try store.select(.index(2), in: set).set) },
        Command("add") { store, set in shown(try store.add(["New"], to: set, at: 1).set) },
        Command("remove") { store, set in shown(try store.remove([.index(0)], from: set).set) },
        Command("move") { store, set in shown(try store.move(.index(0), to: 2, in: set).set) },
        Command("rename") { store, set in shown(try store.rename(.index(1), to: "Renamed", in: set).set) },
        Command("rename-set") { store, set in shown(try store.renameSet(set, to: set + " moved").set) },
        Command("remove-set") { store, set in
            try store.removeSet(set)
            return "removed"
        },
        Command("import") { store, set in
            "\(try store.importDocument(TabStoreDocument(sets: [.init(name: set + " imported", selectedIndex: 1, tabs: ["x", "y"])])))"
        },
        Command("restore") { store, set in
            let selected = try store.selectedTab(in: set)
            return "\(selected.index) \(selected.tab.title)"
        },
        Command("show") { store, set in shown(try store.tabSet(named: set)) },
        Command("list") { store, set in "\(try store.tabSets().filter { $0.name == set })" },
        Command("history") { store, set in try store.history(of: set).map { "\($0.revision) \($0.event.kind.rawValue)" }.joined(separator: ", ") },
        Command("export") { store, set in "\(try store.export([set]).sets.map { "\($0.name) \($0.tabs) \(String(describing: $0.selectedIndex))" })" },
        Command("info") { store, _ in
            let info = try store.info()
            return "version \(info.schemaVersion), check \(info.consistencyCheck)"
        },
    ]

    /// What a person sees of the sets a run may touch, and their journal, read directly.
    static func stored(_ set: String, in url: String) throws -> String {
        let store = try TabStore(postgresURL: url)
        return try [set, set + " moved", set + " imported"].map { name in
            guard let found = try? store.tabSet(named: name) else { return name + " none" }
            return shown(found) + " | " + (try store.history(of: name).map { "\($0.revision) \($0.event.kind.rawValue)" }.joined(separator: ", "))
        }.joined(separator: "\n")
    }

    /// A set of its own for each run, made without the proxy.
    static func makeSet(_ name: String, in url: String) throws {
        let store = try TabStore(postgresURL: url)
        try store.add(["Home", "Menu", "Reviews"], to: name, creatingSet: true)
        try store.select(.index(1), in: name)
    }

    @Test(arguments: commands)
    func aCutAtAnyRequestChangesNothingTheCommandGivesOrLeaves(command: Command) throws {
        let server = try PostgresServer.shared()
        let url = try server.createDatabase()
        let database = String(url.split(separator: "/").last!)
        let proxy = try CuttingProxy(serverPort: server.port)
        let through = proxy.url(database: database)
        // A run without a cut: what every run must give, and how many requests it makes.
        try Self.makeSet("clean", in: url)
        proxy.arm(cutAt: nil)
        let expected = try command.run(try TabStore(postgresURL: through), "clean")
        let requests = proxy.requests
        let expectedStored = try Self.stored("clean", in: url)
        #expect(requests >= 2, "the schema check and the command")
        var run = 0
        for request in 0..<requests {
            for how in CuttingProxy.Cut.allCases {
                run += 1
                let set = "run \(run)"
                try Self.makeSet(set, in: url)
                proxy.arm(cutAt: request, how)
                let cutsBefore = proxy.cutsMade
                let outcome = Result { try command.run(try TabStore(postgresURL: through), set) }
                #expect(proxy.cutsMade == cutsBefore + 1, "request \(request) \(how): the cut was made")
                guard case let .success(given) = outcome else {
                    Issue.record("request \(request) \(how): \(outcome)")
                    continue
                }
                #expect(given.replacing(set, with: "clean") == expected, "request \(request) \(how)")
                #expect(try Self.stored(set, in: url).replacing(set, with: "clean") == expectedStored, "request \(request) \(how)")
            }
        }
    }
}
