import Foundation
import Testing

/// A `tabstore` process left running (`watch`), its output collected as it comes, so a
/// test can act while it runs, wait for lines, then signal it.
final class RunningTabstore: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    // Guarded by `lock`: the pipes' handlers append from Foundation's threads.
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
        stdoutPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.append(handle, toStandardError: false)
        }
        stderrPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.append(handle, toStandardError: true)
        }
        try process.run()
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

    private func append(_ handle: FileHandle, toStandardError: Bool) {
        let data = handle.availableData
        lock.withLock {
            if data.isEmpty {
                handle.readabilityHandler = nil  // end of file
                closedPipes += 1
            } else if toStandardError {
                stderrBytes += data
            } else {
                stdoutBytes += data
            }
        }
    }
}
