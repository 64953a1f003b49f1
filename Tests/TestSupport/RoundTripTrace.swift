import Foundation

/// The round trips a process makes to a server, counted from its own system calls
/// (`strace -e trace=connect,sendto,recvfrom`): each run of sends on the server's socket
/// followed by a receive is one wait for the server.
public enum RoundTripTrace {
    public static let strace = "/usr/bin/strace"
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: strace) }

    /// Runs `command` under strace; its exit status, standard output and round trips to
    /// the server listening on `port` (over TCP or its unix socket).
    public static func run(_ command: [String], serverPort port: Int) throws(PostgresServerError) -> (status: Int32, output: String, roundTrips: Int) {
        let trace = NSTemporaryDirectory() + "tabstore-trace-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strace)
        process.arguments = ["-f", "-qq", "-e", "trace=connect,sendto,recvfrom", "-e", "signal=none", "-o", trace] + command
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw PostgresServerError("cannot run strace: \(error)") }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        return (process.terminationStatus, String(decoding: printed, as: UTF8.self), roundTrips(inTrace: text, serverPort: port))
    }

    /// The waits for the server in an strace log.
    public static func roundTrips(inTrace trace: String, serverPort port: Int) -> Int {
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
}
