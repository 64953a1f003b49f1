import Foundation
import Testing

/// `sync --watch` under a descriptor limit (`ulimit -n`): at every limit it either ends
/// with one line and exit 3, or keeps syncing (a change made on the server reaches the
/// device) until Ctrl-C ends it with 0. Never a death by a signal (a trap in libdispatch),
/// never a session that runs on without syncing.
@Suite(.timeLimit(.minutes(5))) struct WatchLimitTests {
    private static let tooManyFiles = "(this process has too many files open)"

    /// The lines a session may end with, for want of a descriptor.
    private static let refusals: Set<String> = [
        "cannot sync: no file descriptor is free for its signal pipe \(tooManyFiles)",
        "cannot sync: too few file descriptors are free to follow changes \(tooManyFiles)",
    ]

    /// A device that has synced with a server file, both in `sandbox`.
    private func syncedDevice(_ sandbox: Sandbox) -> (device: String, server: String) {
        let device = sandbox.folder + "/laptop.sqlite"
        let server = sandbox.folder + "/server.sqlite"
        #expect(sandbox.runWithoutDatabase(["--db", server, "add", "main", "Home"]).code == 0)
        #expect(sandbox.runWithoutDatabase(["--db", device, "sync", server]).code == 0)
        return (device, server)
    }

    /// What a session under `limits` did: "refused" (one line, exit 3) or "synced" (a
    /// server change reached the device, then Ctrl-C ended it with 0); a failed expectation
    /// otherwise.
    private func outcome(_ sandbox: Sandbox, limits: String, title: String) throws -> String {
        let (device, server) = (sandbox.folder + "/laptop.sqlite", sandbox.folder + "/server.sqlite")
        let session = try RunningTabstore(
            sandbox, executable: "/usr/bin/prlimit",
            [limits, "--", TabstoreBinary.path, "--db", device, "sync", server, "--watch"], environment: [:]
        )
        // The first sync's line, or an error.
        let started = session.wait { $0.stdoutLines.count == 1 || $0.stderr.hasSuffix("\n") }
        #expect(started, "\(limits): \(session.stdout) \(session.stderr)")
        if session.stderr.contains("error while loading shared libraries") {
            // A dynamically linked build cannot even be loaded at the smallest limits.
            #expect(!TabstoreBinary.isReleaseBuild, "\(limits): \(session.stderr)")
            _ = session.exit()
            return "not loaded"
        }
        #expect(sandbox.runWithoutDatabase(["--db", server, "add", "main", title]).code == 0)
        // Either the change comes to the device, or the session says why it ends.
        let synced = session.wait { session in
            session.stderr.isEmpty && sandbox.runWithoutDatabase(["--db", device, "list", "main"]).stdout.contains("  \(title)\n")
                || session.stderr.hasSuffix("\n")
        }
        #expect(synced, "\(limits): neither synced nor ended: \(session.stdout)")
        if session.stderr.isEmpty {
            session.send(SIGINT)
            let ended = session.exit()
            #expect(ended?.status == 0 && ended?.bySignal == false, "\(limits): \(String(describing: ended))")
            #expect(session.stderr == "", "\(limits)")
            return "synced"
        }
        let ended = session.exit()
        let errors = session.stderr.split(separator: "\n").map { $0.dropFirst("tabstore: error: ".count) }.map(String.init)
        #expect(ended?.status == 3 && ended?.bySignal == false, "\(limits): \(String(describing: ended)) \(session.stderr)")
        // One line ends it; a first sync that could not open a store said so before it.
        let opening = [device, server].map { "cannot open database \($0): no file descriptor is free \(Self.tooManyFiles)" }
        #expect(errors.last.map { Self.refusals.contains($0) || opening.contains($0) } == true, "\(limits): \(session.stderr)")
        #expect(errors.dropLast().allSatisfy { opening.contains($0) } && errors.count <= 2, "\(limits): \(session.stderr)")
        #expect(session.stderr.hasSuffix("\n") && !session.stderr.contains("Signal"), "\(limits): \(session.stderr)")
        return "refused"
    }

    /// Once: at 12 and 13 descriptors libdispatch trapped (SIGILL) after the first sync,
    /// and at 14 to 16 the session ran on without ever syncing again.
    @Test func aWatchingSyncUnderEveryDescriptorLimitEndsInOneLineOrKeepsSyncing() throws {
        let sandbox = Sandbox()
        _ = syncedDevice(sandbox)
        var outcomes: [String] = []
        for limit in 4...24 {
            outcomes.append(try outcome(sandbox, limits: "--nofile=\(limit)", title: "n\(limit)"))
        }
        // Both outcomes are reached: the limits span the point where a session can run.
        #expect(outcomes.contains("refused") && outcomes.last == "synced", "\(outcomes)")
        #expect(!outcomes.drop { $0 != "synced" }.contains("refused"), "\(outcomes)")
    }
}
