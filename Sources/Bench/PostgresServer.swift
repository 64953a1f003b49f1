import Foundation
import TabStorePostgres

/// A throwaway PostgreSQL server for the bench, as the tests start theirs: a fresh cluster
/// in a temporary folder, on 127.0.0.1 at a free port (and a unix socket in that folder),
/// without fsync; stopped by its process id. Never a system service.
///
/// `initdb` and the server run as the `postgres` user when the bench runs as root (the
/// server refuses root). The tests' starter is in a test-only module, hence this one.
final class BenchPostgresServer {
    /// The newest /usr/lib/postgresql/*/bin holding initdb, if any.
    static let binaries: String? = {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.compactMap(Int.init).sorted().reversed().map { "\(root)/\($0)/bin" }
            .first { access($0 + "/initdb", X_OK) == 0 }
    }()

    static let notInstalled = "PostgreSQL is not installed here (no /usr/lib/postgresql/*/bin/initdb; apt-get install postgresql)"

    let folder: String
    let port: Int
    private let binaries: String
    private var server: Process?
    private var processID: pid_t = 0

    /// Makes the cluster and starts the server; ready to connect when this returns.
    init() throws {
        guard let binaries = Self.binaries else { throw BenchError(Self.notInstalled) }
        self.binaries = binaries
        port = try Self.freePort()
        var template = Array((NSTemporaryDirectory() + "TabStoreBench-pg-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("mkdtemp failed: \(String(cString: strerror(errno)))") }
        folder = String(cString: made)
        do {
            if getuid() == 0 {
                guard let owner = getpwnam("postgres") else { throw BenchError("no postgres user to run the server as") }
                guard chown(folder, owner.pointee.pw_uid, owner.pointee.pw_gid) == 0 else {
                    throw BenchError("cannot give \(folder) to postgres: \(String(cString: strerror(errno)))")
                }
            }
            try run(binaries + "/initdb", ["-D", dataFolder, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"])
            try launch()
        } catch {
            stop()
            throw error
        }
    }

    private var dataFolder: String { folder + "/data" }

    /// A new empty database on the server: its loopback URL.
    func createDatabase(_ name: String) throws -> String {
        let admin = try PostgresConnection(url: url("postgres"))
        try admin.executeScript("CREATE DATABASE \(name)")
        return url(name)
    }

    func url(_ database: String) -> String {
        "postgresql://postgres@127.0.0.1:\(port)/\(database)"
    }

    /// Stops the server (fast shutdown), killing it if it lingers, and deletes its folder.
    func stop() {
        if let server {
            if processID > 0 { kill(processID, SIGINT) }
            let deadline = monotonicNanoseconds() + 15_000_000_000
            while server.isRunning && monotonicNanoseconds() < deadline { usleep(20_000) }
            if server.isRunning {
                if processID > 0 { kill(processID, SIGKILL) }
                server.waitUntilExit()
            }
            self.server = nil
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func launch() throws {
        let log = folder + "/server.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let arguments = ["-D", dataFolder, "-k", folder, "-p", String(port), "-c", "listen_addresses=127.0.0.1",
                         "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "synchronous_commit=off"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: getuid() == 0 ? "/usr/sbin/runuser" : binaries + "/postgres")
        process.arguments = getuid() == 0 ? ["-u", "postgres", "--", binaries + "/postgres"] + arguments : arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.standardOutput = FileHandle(forWritingAtPath: log)
        process.standardError = FileHandle(forWritingAtPath: log)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        server = process
        // Ready when the postmaster says so in its pid file (line 8), which also gives its pid.
        let deadline = monotonicNanoseconds() + 60_000_000_000
        while monotonicNanoseconds() < deadline {
            guard process.isRunning else {
                throw BenchError("postgres exited at start: \(firstLine(ofFile: log))")
            }
            let lines = ((try? String(contentsOfFile: dataFolder + "/postmaster.pid", encoding: .utf8)) ?? "")
                .split(separator: "\n", omittingEmptySubsequences: false)
            if lines.count >= 8, lines[7].hasPrefix("ready"), let pid = pid_t(lines[0]) {
                processID = pid
                return
            }
            usleep(20_000)
        }
        stop()
        throw BenchError("postgres did not become ready within 60 s")
    }

    /// Runs `program` (as postgres when root) in the server's folder to its end, or throws
    /// with the first line it wrote to stderr.
    private func run(_ program: String, _ arguments: [String]) throws {
        let name = (program as NSString).lastPathComponent
        let errors = folder + "/" + name + ".stderr"
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: getuid() == 0 ? "/usr/sbin/runuser" : program)
        process.arguments = getuid() == 0 ? ["-u", "postgres", "--", program] + arguments : arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: errors)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("\(name) exited with status \(process.terminationStatus): \(firstLine(ofFile: errors))")
        }
    }

    /// A port on 127.0.0.1 that nothing listened on a moment ago (the server takes it next).
    private static func freePort() throws -> Int {
        #if os(Linux)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw BenchError("socket failed: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else { throw BenchError("cannot bind a port on 127.0.0.1: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
