import Foundation

/// A command line turned into C strings once, so that building `argv` is not timed.
final class Command {
    let arguments: [String]
    private let argv: [UnsafeMutablePointer<CChar>?]
    private let environment: [UnsafeMutablePointer<CChar>?]

    /// `arguments[0]` is the program's path; `variables` are set (or replaced) in the
    /// environment the bench itself was given.
    init(_ arguments: [String], adding variables: [String: String] = [:]) {
        self.arguments = arguments
        argv = arguments.map { strdup($0) } + [nil]
        let variables = ProcessInfo.processInfo.environment.merging(variables) { $1 }
        environment = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    }

    deinit {
        for pointer in argv + environment { free(pointer) }
    }

    /// How one run ended.
    struct Run {
        let milliseconds: Double
        /// The exit status, or 128 + the signal number when killed by a signal.
        let status: Int32
    }

    /// Runs the command once and waits: stdout to /dev/null, stderr to `stderrPath`.
    ///
    /// `posix_spawn` and `wait4` rather than Foundation's `Process`, which adds its own
    /// threads and pipes: every program timed here pays the same small, fixed launch cost.
    func run(stderrPath: String) throws -> Run {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        var pid: pid_t = 0
        let start = monotonicNanoseconds()
        let code = posix_spawn(&pid, arguments[0], &actions, nil, argv, environment)
        guard code == 0 else {
            throw BenchError("cannot run \(arguments[0]): \(String(cString: strerror(code)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError("wait4 failed: \(String(cString: strerror(errno)))") }
        }
        let elapsed = Double(monotonicNanoseconds() - start) / 1e6
        // WIFEXITED / WEXITSTATUS, which Swift does not import (they are macros).
        let signal = status & 0x7F
        return Run(milliseconds: elapsed, status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal)
    }
}

extension Command {
    /// How one run went, read from its standard output.
    struct ShownRun {
        /// From the spawn to the first newline on standard output: what a person waits
        /// for before the program shows something.
        let firstLineMilliseconds: Double
        /// From the spawn to the exit.
        let exitMilliseconds: Double
        let status: Int32
    }

    /// Runs the command once with standard output on a pipe the bench reads, and waits:
    /// stderr to `stderrPath`.
    func runShowing(stderrPath: String) throws -> ShownRun {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw BenchError("pipe failed: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        var pid: pid_t = 0
        let start = monotonicNanoseconds()
        let code = posix_spawn(&pid, arguments[0], &actions, nil, argv, environment)
        close(ends[1])
        defer { close(ends[0]) }
        guard code == 0 else {
            throw BenchError("cannot run \(arguments[0]): \(String(cString: strerror(code)))")
        }
        var firstLine: UInt64?
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(ends[0], &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            if firstLine == nil && buffer[..<count].contains(UInt8(ascii: "\n")) { firstLine = monotonicNanoseconds() }
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError("wait4 failed: \(String(cString: strerror(errno)))") }
        }
        let end = monotonicNanoseconds()
        let signal = status & 0x7F
        let ended = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        guard let firstLine else { throw BenchError("\(arguments[0]) ended (status \(ended)) without printing a line") }
        return ShownRun(
            firstLineMilliseconds: Double(firstLine - start) / 1e6, exitMilliseconds: Double(end - start) / 1e6, status: ended
        )
    }
}

/// The first line a failed run wrote to stderr, to say why in the report.
func firstLine(ofFile path: String) -> String {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").first.map(String.init) ?? "(nothing on stderr)"
}

/// The absolute path of `name` on `PATH`, if any.
func findOnPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
}

/// The shared libraries `program` loads, as `ldd` lists them (the dynamic loader itself,
/// which the kernel starts by its absolute path, left out).
func sharedLibraries(of program: String) -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
    process.arguments = [program]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return [] }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    // "\tlibsqlite3.so.0 => /lib/x86_64-linux-gnu/libsqlite3.so.0 (0x00007f...)"
    return output.split(separator: "\n").compactMap { line in
        guard let arrow = line.range(of: " => ") else { return nil }
        let path = line[arrow.upperBound...].split(separator: " ").first.map(String.init)
        return path?.hasPrefix("/") == true ? path : nil
    }
}

/// The folder the bench executable is in: `swift build` puts `tabstore` and
/// `TabStoreBenchHello` there too.
func executableFolder() -> String {
    let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0]
    return (executable as NSString).deletingLastPathComponent
}
