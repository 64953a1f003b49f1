import Foundation
import TabStoreTestSupport
import Testing

/// A sandbox whose `tabstore` runs use a database on a PostgreSQL server: a fresh one on
/// the shared test server, or on a server of the test's own (for tests that stop it).
final class ServerSandbox: Sendable {
    let sandbox = Sandbox()
    let server: PostgresServer
    let url: String
    /// Whether the server is this test's own, destroyed with the sandbox.
    private let ownsServer: Bool

    /// A fresh database on the shared server.
    init() throws {
        server = try PostgresServer.shared()
        url = try server.createDatabase()
        ownsServer = false
    }

    /// A fresh database on a server of its own.
    init(ownServer: Void) throws {
        server = try PostgresServer.start()
        url = try server.createDatabase()
        ownsServer = true
    }

    deinit {
        if ownsServer { server.destroy() }
    }

    /// The database's name on the server (the URL's last part).
    var databaseName: String { String(url.split(separator: "/").last ?? "") }

    /// Runs `tabstore --db <url> ARGUMENTS...`.
    func run(_ arguments: String..., environment: [String: String] = [:]) -> Output {
        run(arguments, environment: environment)
    }

    func run(_ arguments: [String], database: String? = nil, stdin: String? = nil, environment: [String: String] = [:]) -> Output {
        sandbox.runWithoutDatabase(["--db", database ?? url] + arguments, stdin: stdin, environment: environment)
    }

    /// Runs a command that must succeed, failing the test if it does not.
    @discardableResult
    func succeed(_ arguments: String...) -> Output {
        let output = run(arguments)
        #expect(output.code == 0 && output.stderr == "", "\(arguments.joined(separator: " ")): \(output)")
        return output
    }

    /// Runs SQL on the test's database as the superuser.
    @discardableResult
    func psql(_ sql: String) throws -> String {
        try server.psql(databaseName, sql)
    }
}

/// `history` text with each time written as `TIME`.
func maskingTimes(_ text: String) -> String {
    text.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/, with: "TIME")
}

/// The revisions of `history SET` output, newest first.
func revisions(inHistory text: String) -> [Int] {
    text.split(separator: "\n").compactMap { line in Int(line.split(separator: " ").first ?? "") }
}
