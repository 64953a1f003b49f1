import Foundation
import Testing

/// What one run of the built `tabstore` printed and how it exited, compared as a whole.
struct Output: Equatable, CustomStringConvertible {
    var code: Int32
    var stdout: String
    var stderr: String

    static func ok(_ stdout: String) -> Output { Output(code: 0, stdout: stdout, stderr: "") }
    static func failure(_ code: Int32, _ stderr: String) -> Output { Output(code: code, stdout: "", stderr: stderr) }

    var description: String { "exit \(code)\n--- stdout\n\(stdout)--- stderr\n\(stderr)---" }
}

/// The built `tabstore` executable: it sits in the build products folder next to the
/// test bundle (on Linux the test runner is the `.xctest` executable itself).
enum TabstoreBinary {
    static let path: String = {
        if let override = ProcessInfo.processInfo.environment["TABSTORE_BINARY"] { return override }
        var folders: [String] = []
        if let runner = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append((runner as NSString).deletingLastPathComponent)
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append((bundle.bundlePath as NSString).deletingLastPathComponent)
        }
        folders.append((Bundle.main.bundlePath as NSString).deletingLastPathComponent)
        folders.append(Bundle.main.bundlePath)
        let candidates = folders.map { ($0 as NSString).appendingPathComponent("tabstore") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }()

    /// `tabstore-postgres`, which `tabstore` hands server URLs to: built beside it.
    static var companionPath: String {
        (path as NSString).deletingLastPathComponent + "/tabstore-postgres"
    }

    /// Whether the binary under test is a release build (`.ci/run` sets TABSTORE_BINARY to
    /// one): SwiftPM puts it in a folder named `release`.
    static var isReleaseBuild: Bool {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        return resolved.deletingLastPathComponent().lastPathComponent == "release"
    }
}

/// A temporary folder with its own database; removed when released.
final class Sandbox: Sendable {
    let folder: String
    var database: String { folder + "/tabs.sqlite" }

    init() {
        folder = NSTemporaryDirectory() + "tabstore-cli-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs `tabstore --db <sandbox database> ARGUMENTS...`.
    func run(_ arguments: String..., stdin: String? = nil, environment: [String: String] = [:]) -> Output {
        runWithoutDatabase(["--db", database] + arguments, stdin: stdin, environment: environment)
    }

    /// Runs `tabstore ARGUMENTS...` as given, with HOME in the sandbox and no tabstore variables
    /// unless `environment` sets them.
    func runWithoutDatabase(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) -> Output {
        runProcess(TabstoreBinary.path, arguments, stdin: stdin, environment: environment)
    }

    /// Runs any executable the same way (used with /bin/sh to pass bytes that are not UTF-8).
    func runProcess(_ executable: String, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var variables = ["PATH": "/usr/bin:/bin", "HOME": folder + "/home", "LANG": "C.UTF-8"]
        variables.merge(environment) { $1 }
        process.environment = variables
        let id = UUID().uuidString
        let stdoutPath = folder + "/.stdout-\(id)", stderrPath = folder + "/.stderr-\(id)", stdinPath = folder + "/.stdin-\(id)"
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stdinPath, contents: Data((stdin ?? "").utf8))
        defer {
            for path in [stdoutPath, stderrPath, stdinPath] { try? FileManager.default.removeItem(atPath: path) }
        }
        do {
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
            process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: stdinPath))
            try process.run()
        } catch {
            Issue.record("cannot run \(executable): \(error)")
            return Output(code: -1, stdout: "", stderr: "\(error)")
        }
        process.waitUntilExit()
        let read = { (path: String) in String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) }
        return Output(code: process.terminationStatus, stdout: read(stdoutPath), stderr: read(stderrPath))
    }

    /// Copies the executable at `source` to `destination` with `cp`, a process of its own.
    /// A copy written here would hold a writable descriptor that every process another
    /// test thread starts meanwhile inherits; running the copy then fails with "Text file
    /// busy" (ETXTBSY) until that child has exec'd.
    func installExecutable(_ source: String, at destination: String) throws {
        let copied = runProcess("/bin/cp", [source, destination])
        guard copied.code == 0 else { throw InstallFailure(output: copied) }
    }

    struct InstallFailure: Error {
        let output: Output
    }

    /// Sets up tabs with `add`, failing the test if that does not work.
    func add(_ set: String, _ titles: String...) {
        let output = runWithoutDatabase(["--db", database, "add", set, "--"] + titles)
        #expect(output.code == 0, "setup add failed: \(output)")
    }

    /// `list SET` text, to assert a whole state.
    func list(_ set: String) -> String {
        run("list", set).stdout
    }

    func write(_ text: String, to name: String) -> String {
        let path = folder + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }
}
