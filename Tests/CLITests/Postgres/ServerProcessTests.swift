import Foundation
import TabStoreTestSupport
import Testing

/// What one `tabstore` process costs and shows on a server: its round trips, counted from
/// its own system calls, and its arguments as every user of the machine sees them.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct ServerProcessTests {
    static var hasStrace: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") }

    /// The times the process waited for the server: each run of sends on the server's
    /// socket followed by a receive, from `strace -e trace=connect,sendto,recvfrom`.
    static func roundTrips(inTrace trace: String, serverPort port: Int) -> Int {
        var socket: String?
        var trips = 0
        var sent = false
        for line in trace.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 1)
            guard fields.count == 2 else { continue }
            let call = fields[1]
            if call.hasPrefix("connect("), call.contains("htons(\(port))") || call.contains(".s.PGSQL.\(port)") {
                socket = String(call.dropFirst("connect(".count).prefix { $0 != "," })
            }
            guard let socket, call.hasPrefix("sendto(\(socket),") || call.hasPrefix("recvfrom(\(socket),"),
                  let result = call.split(separator: "= ").last.flatMap({ Int($0.prefix { $0.isNumber }) }), result > 0 else { continue }
            if call.hasPrefix("sendto") {
                sent = true
            } else if sent {
                trips += 1
                sent = false
            }
        }
        return trips
    }

    /// Once seven: the startup, two set_config, a schema check, a version read, the lock
    /// with the reads, the writes with the COMMIT. Now the startup (its settings in the
    /// startup packet), the schema check with the version, and the edit's two.
    @Test(.enabled(if: hasStrace, "strace is not installed"))
    func aSelectProcessWaitsForTheServerFourTimes() throws {
        let server = try ServerSandbox()
        server.succeed("add", "s", "a", "b")
        let port = server.server.port
        let overSocket = "postgresql:///\(server.databaseName)?host=\(server.server.folder)&port=\(port)&user=postgres"
        let trace = server.sandbox.folder + "/trace.txt"
        for (url, expected) in [(overSocket, 4), (server.url, 5)] {
            let output = server.sandbox.runProcess("/usr/bin/strace", [
                "-f", "-qq", "-e", "trace=connect,sendto,recvfrom", "-e", "signal=none", "-o", trace,
                TabstoreBinary.path, "--db", url, "select", "s", expected == 4 ? "b" : "a",
            ])
            #expect(output == .ok(expected == 4 ? "selected 1: b\n" : "selected 0: a\n"))
            // Over TCP libpq first asks whether the server speaks TLS (sslmode=prefer): one more.
            #expect(Self.roundTrips(inTrace: try String(contentsOfFile: trace, encoding: .utf8), serverPort: port) == expected, "\(url)")
        }
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
