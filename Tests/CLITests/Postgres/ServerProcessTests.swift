import Foundation
import TabStoreTestSupport
import Testing

/// What one `tabstore` process costs and shows on a server: its round trips, counted from
/// its own system calls, and its arguments as every user of the machine sees them.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct ServerProcessTests {
    /// Once seven: the startup, two set_config, a schema check, a version read, the lock
    /// with the reads, the writes with the COMMIT. Now the startup (its settings in the
    /// startup packet), the schema check with the version, and the edit's two.
    @Test(.enabled(if: RoundTripTrace.isAvailable, "strace is not installed"))
    func aSelectProcessWaitsForTheServerFourTimes() throws {
        let server = try ServerSandbox()
        server.succeed("add", "s", "a", "b")
        let port = server.server.port
        let overSocket = "postgresql:///\(server.databaseName)?host=\(server.server.folder)&port=\(port)&user=postgres"
        let bySocket = try RoundTripTrace.run([TabstoreBinary.path, "--db", overSocket, "select", "s", "b"], serverPort: port)
        #expect(bySocket.status == 0 && bySocket.output == "selected 1: b\n")
        #expect(bySocket.roundTrips == 4, "\(bySocket.trace)")
        // Over TCP libpq first asks whether the server speaks TLS (sslmode=prefer): one more.
        let byTCP = try RoundTripTrace.run([TabstoreBinary.path, "--db", server.url, "select", "s", "a"], serverPort: port)
        #expect(byTCP.status == 0 && byTCP.output == "selected 0: a\n")
        #expect(byTCP.roundTrips == 5, "\(byTCP.trace)")
    }

    /// Once: the password stayed in /proc/PID/cmdline, for `ps` to show, as long as watch ran.
    @Test func aPasswordOnTheCommandLineLeavesTheProcessTable() throws {
        let server = try ServerSandbox()
        let user = PostgresServer.passwordUser, secret = PostgresServer.password
        try server.psql("GRANT ALL ON SCHEMA public TO \(user)")
        let withPassword = server.server.url(database: server.databaseName, user: user, password: secret)
        #expect(server.run(["add", "s", "a"], database: withPassword) == .ok("added 1 tab to s\n"))
        let shown = server.server.url(database: server.databaseName, user: user)
        let forms: [(arguments: [String], shown: [String])] = [
            (["--db", withPassword, "watch", "s"], ["--db", shown, "watch", "s"]),
            (["watch", "--db=" + withPassword, "s"], ["watch", "--db=" + shown, "s"]),
            (["--db", shown + "?password=" + secret + "&sslmode=disable", "watch", "s"], ["--db", shown + "?sslmode=disable", "watch", "s"]),
        ]
        for form in forms {
            let watch = try RunningTabstore(server.sandbox, executable: TabstoreBinary.path, form.arguments, environment: [:])
            #expect(watch.wait { $0.stderr == "watching s (Ctrl-C to stop)\n" })
            let commandLine = try String(decoding: Data(contentsOf: URL(fileURLWithPath: "/proc/\(watch.processIdentifier)/cmdline")), as: UTF8.self)
            #expect(commandLine.split(separator: "\0").map(String.init) == [TabstoreBinary.path] + form.shown)
            #expect(!commandLine.contains(secret))
            watch.send(SIGINT)
            #expect(watch.exit()?.status == 0)
        }
    }
}
