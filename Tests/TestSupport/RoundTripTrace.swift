import Foundation

/// The round trips a process makes to a server, counted from its own system calls
/// (`strace -e trace=connect,sendto,recvfrom`): each run of sends on the server's socket
/// followed by a receive is one wait for the server.
public enum RoundTripTrace {
    public static let strace = "/usr/bin/strace"
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: strace) }

    /// Runs `command` under strace; its exit status, standard output and round trips to
    /// the server listening on `port` (over TCP or its unix socket).
    public static func run(_ command: [String], serverPort port: Int) throws(PostgresServerError) -> (status: Int32, output: String, roundTrips: Int, trace: String) {
        // One file per thread (-ff): a thread's calls are never split by another's
        // ("<unfinished ...>", "<... resumed>"), which would hide them from the count.
        let folder = NSTemporaryDirectory() + "tabstore-trace-" + UUID().uuidString
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw PostgresServerError("cannot make \(folder): \(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strace)
        process.arguments = ["-ff", "-qq", "-e", "trace=connect,sendto,recvfrom", "-e", "signal=none", "-o", folder + "/trace"] + command
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw PostgresServerError("cannot run strace: \(error)") }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let traces = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            .map { (try? String(contentsOfFile: folder + "/" + $0, encoding: .utf8)) ?? "" }
        let trips = traces.map { roundTrips(inTrace: $0, serverPort: port) }.reduce(0, +)
        return (process.terminationStatus, String(decoding: printed, as: UTF8.self), trips, traces.joined(separator: "\n"))
    }

    /// The waits for the server in one thread's strace log (lines without a pid).
    public static func roundTrips(inTrace trace: String, serverPort port: Int) -> Int {
        var socket: String?
        var trips = 0
        var sent = false
        for call in trace.split(separator: "\n") {
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
}
