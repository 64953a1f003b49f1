import Foundation
import Synchronization

/// A throwaway PostgreSQL server for tests: a fresh cluster in a temporary folder, listening
/// on 127.0.0.1 at a free port (and a unix socket in that folder), without fsync. Stopped
/// by its process id, and at the latest when the test process exits. Never a system service.
///
/// `initdb` runs as the `postgres` user when the tests run as root (the server refuses root).
public final class PostgresServer: @unchecked Sendable {
    /// A role that logs in over TCP with a password (every other login is trusted).
    public static let passwordUser = "tabstore_pw"
    public static let password = "tabstore-pw-secret"

    /// The folder of the PostgreSQL programs (the newest /usr/lib/postgresql/*/bin with initdb).
    public static let binaries: String? = {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.compactMap(Int.init).sorted().reversed().map { "\(root)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }()

    /// Whether a server can be started here.
    public static var isAvailable: Bool { binaries != nil }
    /// Set in CI: a missing PostgreSQL fails the tests instead of skipping them.
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["TABSTORE_REQUIRE_POSTGRES"] == "1" }
    /// TABSTORE_SKIP_POSTGRES=1 leaves the PostgreSQL tests out where a server could start:
    /// the fast subset CONTRIBUTING names.
    public static var isLeftOut: Bool { ProcessInfo.processInfo.environment["TABSTORE_SKIP_POSTGRES"] == "1" }
    /// Whether PostgreSQL tests run: when a server can start and they are not left out, or
    /// when it must (and they fail).
    public static var shouldRun: Bool { (isAvailable && !isLeftOut) || isRequired }
    public static let skipReason = isAvailable && isLeftOut
        ? "TABSTORE_SKIP_POSTGRES=1 leaves the PostgreSQL tests out"
        : "no PostgreSQL here (/usr/lib/postgresql/*/bin/initdb is missing); set TABSTORE_REQUIRE_POSTGRES=1 to fail instead of skipping"

    /// The server the tests of this process share, started on first use.
    ///
    /// - Throws: `PostgresServerError` when it cannot start (with why).
    public static func shared() throws -> PostgresServer {
        try sharedServer.get()
    }

    private static let sharedServer: Result<PostgresServer, PostgresServerError> = Result { () throws(PostgresServerError) in
        try start()
    }

    public let folder: String
    public let port: Int
    /// Where clients reach it over TCP: 127.0.0.1, or its address inside a network namespace.
    public let host: String
    /// The namespace it runs in (behind a link a test can cut), if any.
    public let link: NetworkLink?
    /// Server settings besides the tests' defaults (`-c name=value` when it starts).
    public let settings: [String: String]
    let binaries: String
    private let state = Mutex(State())

    private struct State {
        var launcher: Process?
        var processID: pid_t = 0
        var databases = 0
    }

    /// A new server of its own (for tests that stop, restart or break it), with `settings`
    /// besides the defaults, inside `link`'s network namespace when given.
    public static func start(settings: [String: String] = [:], behind link: NetworkLink? = nil) throws(PostgresServerError) -> PostgresServer {
        let server = try PostgresServer(settings: settings, link: link)
        try server.run(server.binaries + "/initdb",
                       ["-D", server.dataFolder, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"], asServer: true)
        // Password logins for one role over TCP; the rest stays trusted. First match wins.
        // Behind a link, clients come from the link's other end.
        let rules = server.dataFolder + "/pg_hba.conf"
        let trusted = (try? String(contentsOfFile: rules, encoding: .utf8)) ?? ""
        let linked = link.map { "host all all \($0.clientAddress)/32 trust\n" } ?? ""
        do {
            try ("host all \(passwordUser) 127.0.0.1/32 scram-sha-256\n" + linked + trusted).write(toFile: rules, atomically: false, encoding: .utf8)
        } catch {
            throw PostgresServerError("cannot write \(rules): \(error)")
        }
        try server.launch()
        try server.psql("postgres", "CREATE ROLE \(passwordUser) LOGIN PASSWORD '\(password)'")
        return server
    }

    /// A folder of its own (owned by postgres when running as root) and a free port.
    init(settings: [String: String], link: NetworkLink?) throws(PostgresServerError) {
        guard let binaries = Self.binaries else {
            throw PostgresServerError(Self.isRequired ? "TABSTORE_REQUIRE_POSTGRES=1, but /usr/lib/postgresql/*/bin/initdb is missing" : Self.skipReason)
        }
        var template = Array((NSTemporaryDirectory() + "tabstore-pg-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw PostgresServerError("mkdtemp failed: errno \(errno)") }
        let folder = String(cString: made)
        if getuid() == 0 {
            guard let owner = getpwnam("postgres") else { throw PostgresServerError("no postgres user to run the server as") }
            guard chown(folder, owner.pointee.pw_uid, owner.pointee.pw_gid) == 0 else {
                throw PostgresServerError("cannot give \(folder) to postgres: errno \(errno)")
            }
        }
        self.folder = folder
        self.port = try Self.freePort()
        self.binaries = binaries
        self.settings = settings
        self.link = link
        host = link?.serverAddress ?? "127.0.0.1"
        Self.running.withLock { $0.append(self) }
    }

    var dataFolder: String { folder + "/data" }

    /// `postgresql://user[:password]@host:port/database`.
    public func url(database: String, user: String = "postgres", password: String? = nil) -> String {
        "postgresql://\(user)\(password.map { ":" + $0 } ?? "")@\(host):\(port)/\(database)"
    }

    /// A new empty database, so that tests do not see each other's data: its URL.
    public func createDatabase() throws(PostgresServerError) -> String {
        let name = state.withLock { state in
            state.databases += 1
            return "db_\(state.databases)"
        }
        try psql("postgres", "CREATE DATABASE \(name)")
        return url(database: name)
    }

    /// Runs `sql` with psql on `database`, as the superuser, through the server's unix socket
    /// (which no cut link or namespace stands in front of): its output (unaligned, no headers).
    @discardableResult
    public func psql(_ database: String, _ sql: String, user: String = "postgres") throws(PostgresServerError) -> String {
        try run(binaries + "/psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", folder, "-p", String(port),
                                     "-U", user, "-d", database, "-c", sql], asServer: false)
    }

    /// Stops the server (fast shutdown: sessions are ended), killing it if it lingers.
    public func stop() {
        let (launcher, processID) = state.withLock { state in
            defer { state.launcher = nil; state.processID = 0 }
            return (state.launcher, state.processID)
        }
        guard let launcher else { return }
        // A paused server cannot shut down (nor runuser, which stops itself with its child).
        for process in processes(of: launcher.processIdentifier) { kill(process, SIGCONT) }
        if processID > 0 { kill(processID, SIGINT) }
        let deadline = Date().addingTimeInterval(15)
        while launcher.isRunning && Date() < deadline { usleep(20_000) }
        if launcher.isRunning {
            if processID > 0 { kill(processID, SIGKILL) }
            launcher.terminate()
            launcher.waitUntilExit()
        }
    }

    /// Stops the server and starts it again on the same port and data.
    public func restart() throws(PostgresServerError) {
        stop()
        try launch()
    }

    /// Stops the server and deletes its folder.
    public func destroy() {
        stop()
        try? FileManager.default.removeItem(atPath: folder)
        Self.running.withLock { $0.removeAll { $0 === self } }
    }

    func launch() throws(PostgresServerError) {
        let log = folder + "/server.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        var values = ["listen_addresses": host, "fsync": "off", "full_page_writes": "off", "synchronous_commit": "off",
                      "max_connections": "200"]
        values.merge(settings) { $1 }
        let arguments = ["-D", dataFolder, "-k", folder, "-p", String(port)]
            + values.sorted { $0.key < $1.key }.flatMap { ["-c", $0.key + "=" + $0.value] }
        var command = (getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + [binaries + "/postgres"] + arguments
        if let link { command = ["/usr/sbin/ip", "netns", "exec", link.namespace] + command }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardOutput = FileHandle(forWritingAtPath: log)
        process.standardError = FileHandle(forWritingAtPath: log)
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw PostgresServerError("cannot start postgres: \(error)") }
        state.withLock { $0.launcher = process }
        // Ready when the postmaster says so in its pid file (line 8), which also gives its pid.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            guard process.isRunning else {
                let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw PostgresServerError("postgres exited at start: \(output)")
            }
            let lines = ((try? String(contentsOfFile: dataFolder + "/postmaster.pid", encoding: .utf8)) ?? "")
                .split(separator: "\n", omittingEmptySubsequences: false)
            if lines.count >= 8, lines[7].hasPrefix("ready"), let pid = pid_t(lines[0]) {
                state.withLock { $0.processID = pid }
                return
            }
            usleep(20_000)
        }
        stop()
        throw PostgresServerError("postgres did not become ready within 60 s; see \(log)")
    }

    /// The postmaster's process id while it runs (0 when stopped).
    public var processID: pid_t { state.withLock { $0.processID } }

    /// The postmaster and every process under it (the backends, the WAL writer...).
    func processes(of root: pid_t) -> [pid_t] {
        guard root > 0 else { return [] }
        var parents: [pid_t: pid_t] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry),
                  let status = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = status.lastIndex(of: ")") else { continue }
            let fields = status[status.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = pid_t(fields[1]) { parents[pid] = parent }
        }
        var found = [root]
        var index = 0
        while index < found.count {
            found += parents.filter { $0.value == found[index] }.map(\.key)
            index += 1
        }
        return found
    }

    /// Stops every process of the server where it stands (SIGSTOP), as a hung machine
    /// would; the kernel still accepts and acknowledges connections. Undo with `resume`.
    public func pause() {
        for process in processes(of: processID) { kill(process, SIGSTOP) }
    }

    /// Continues the server's processes and its launcher (runuser stops itself when its
    /// child stops).
    public func resume() {
        let launcher = state.withLock { $0.launcher?.processIdentifier } ?? processID
        for process in processes(of: launcher) { kill(process, SIGCONT) }
    }

    /// Kills every process of the server at once (SIGKILL), as a machine dying would: no
    /// shutdown, no last word to its clients beyond the kernel closing their sockets.
    public func killEveryProcess() {
        let (launcher, root) = state.withLock { state in
            defer { state.launcher = nil; state.processID = 0 }
            return (state.launcher, state.processID)
        }
        for process in processes(of: root) { kill(process, SIGKILL) }
        launcher?.waitUntilExit()
    }

    /// Runs a program to its end; its standard output, or an error with its standard error.
    @discardableResult
    func run(_ program: String, _ arguments: [String], asServer: Bool) throws(PostgresServerError) -> String {
        let process = Process()
        let switchUser = asServer && getuid() == 0
        process.executableURL = URL(fileURLWithPath: switchUser ? "/usr/sbin/runuser" : program)
        process.arguments = switchUser ? ["-u", "postgres", "--", program] + arguments : arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw PostgresServerError("cannot run \(program): \(error)") }
        // Read both before waiting, so that a full pipe cannot stall the program.
        let errorData = Mutex(Data())
        let reader = Thread { errorData.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() } }
        reader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while reader.isExecuting || !reader.isFinished { usleep(1_000) }
        guard process.terminationStatus == 0 else {
            let message = errorData.withLock { String(decoding: $0, as: UTF8.self) }
            throw PostgresServerError("\((program as NSString).lastPathComponent) failed (\(process.terminationStatus)): \(message)")
        }
        return String(decoding: outputData, as: UTF8.self)
    }

    // MARK: Cleanup at exit

    private static let running = Mutex<[PostgresServer]>([])
    private static let cleanupRegistered: Bool = {
        atexit { PostgresServer.destroyAll() }
        return true
    }()

    private static func destroyAll() {
        let servers = running.withLock { $0 }
        for server in servers { server.destroy() }
    }

    /// A port nothing listens on now (a server may take it: the race is short).
    private static func freePort() throws(PostgresServerError) -> Int {
        _ = cleanupRegistered
        return try ClosedPort().number
    }
}

/// A TCP port on 127.0.0.1 bound but not listening while this lives: a connection to it is
/// refused.
public final class ClosedPort {
    public let number: Int
    private let descriptor: Int32

    public init() throws(PostgresServerError) {
        (descriptor, number) = try boundLoopbackSocket()
    }

    deinit {
        close(descriptor)
    }
}

/// A TCP socket bound to a free port on 127.0.0.1, and that port.
func boundLoopbackSocket() throws(PostgresServerError) -> (descriptor: Int32, port: Int) {
    #if os(Linux)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw PostgresServerError("socket failed: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
            bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
        }
    }
    guard bound else {
        close(descriptor)
        throw PostgresServerError("cannot bind a port on 127.0.0.1: errno \(errno)")
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
}

/// Why a test server could not be made or used.
public struct PostgresServerError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
