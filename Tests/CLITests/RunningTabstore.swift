import Foundation
import Testing

/// A `tabstore` process left running (`watch`), its output collected as it comes, so a
/// test can act while it runs, wait for lines, then signal it.
final class RunningTabstore: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    // Guarded by `lock`: each pipe's reading thread appends.
    private var stdoutBytes = Data()
    private var stderrBytes = Data()

    /// Starts `tabstore --db <database> ARGUMENTS...` with the sandbox's environment;
    /// the database is the sandbox's file unless `database` names another (a server URL).
    convenience init(_ sandbox: Sandbox, _ arguments: [String], database: String? = nil, environment: [String: String] = [:]) throws {
        try self.init(sandbox, executable: TabstoreBinary.path, ["--db", database ?? sandbox.database] + arguments, environment: environment)
    }

    /// Starts `shell` under a pseudo-terminal (`script`): its stdout is what the terminal shows.
    convenience init(onTerminal sandbox: Sandbox, _ shell: String, environment: [String: String] = [:]) throws {
        try self.init(sandbox, executable: "/usr/bin/script", ["-qefc", shell, "/dev/null"], environment: environment)
    }

    init(_ sandbox: Sandbox, executable: String, _ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": sandbox.folder + "/home", "LANG": "C.UTF-8"]
            .merging(environment) { $1 }
        let stdoutPipe = Pipe(), stderrPipe = Pipe()
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        read(stdoutPipe.fileHandleForReading, toStandardError: false)
        read(stderrPipe.fileHandleForReading, toStandardError: true)
    }

    /// Reads `handle` to its end on a thread of its own, which holds it open until then.
    /// Not a `readabilityHandler`: its dispatch source can still be registered when the
    /// handle is released, its descriptor closed and then reused, which crashes
    /// libdispatch's event loop in the test process.
    private func read(_ handle: FileHandle, toStandardError: Bool) {
        Thread.detachNewThread { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = Glibc.read(handle.fileDescriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                self?.append(Data(buffer[0..<count]), toStandardError: toStandardError)
            }
            self?.append(nil, toStandardError: toStandardError)
            try? handle.close()
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    var stdout: String { lock.withLock { String(decoding: stdoutBytes, as: UTF8.self) } }
    var stderr: String { lock.withLock { String(decoding: stderrBytes, as: UTF8.self) } }

    /// The complete lines printed so far, without their newlines.
    var stdoutLines: [String] {
        stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Polls until `condition` holds; false when `timeout` passes first.
    func wait(timeout: Duration = .seconds(20), until condition: (RunningTabstore) -> Bool) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if condition(self) { return true }
            usleep(10_000)
        }
        return condition(self)
    }

    /// The process's id, while it runs.
    var processIdentifier: Int32 { process.processIdentifier }

    /// Polls until `condition` holds; false when `timeout` passes first.
    static func poll(timeout: Duration = .seconds(20), until condition: () -> Bool) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// The exit status once the process has ended, and whether it ended by a signal;
    /// `nil` (after killing it) when it outlives `timeout`.
    func exit(timeout: Duration = .seconds(20)) -> (status: Int32, bySignal: Bool)? {
        guard wait(timeout: timeout, until: { !$0.process.isRunning }) else {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        process.waitUntilExit()
        // The last bytes may still be in the pipes after the exit.
        _ = wait(timeout: .seconds(2)) { $0.pipesClosed }
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
    }

    private var closedPipes = 0
    private var pipesClosed: Bool { lock.withLock { closedPipes == 2 } }

    /// Bytes read from a pipe; nil at its end.
    private func append(_ data: Data?, toStandardError: Bool) {
        lock.withLock {
            if let data {
                if toStandardError { stderrBytes += data } else { stdoutBytes += data }
            } else {
                closedPipes += 1
            }
        }
    }
}
