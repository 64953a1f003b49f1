import Foundation
import Testing

/// Limits of the process (`ulimit -n`, `ulimit -v`): a resource the system refuses is one
/// line and exit 3, never a crash, a hang, or a command run as another.
@Suite struct ResourceLimitTests {
    /// Runs `tabstore ARGUMENTS` under `prlimit LIMITS`, which sets the limits and execs it.
    private func run(_ sandbox: Sandbox, limits: [String], _ arguments: [String]) -> Output {
        sandbox.runProcess("/usr/bin/prlimit", limits + ["--", TabstoreBinary.path, "--db", sandbox.database] + arguments)
    }

    /// The fewest descriptors the binary starts with: a dynamically linked one (a debug
    /// build) needs one to load its libraries, a static one none.
    private static var fewestDescriptors: Int { TabstoreBinary.isReleaseBuild ? 3 : 4 }

    @Test func aCommandWithNoDescriptorLeftForItsDatabaseFailsInOneLineAndChangesNothing() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Search")
        let refused = Output.failure(
            3, "tabstore: error: cannot open database \(sandbox.database): no file descriptor is free (this process has too many files open)\n"
        )
        for limit in Self.fewestDescriptors...5 {
            // Without one, a static binary's Swift runtime could not read /proc/self/cmdline
            // and ran a bare `tabstore`: the general help, exit 0, nothing done.
            for command in [["remove-set", "main"], ["select", "main", "1"], ["add", "main", "Map"], ["list"], ["restore", "main"]] {
                #expect(run(sandbox, limits: ["--nofile=\(limit)"], command) == refused, "ulimit -n \(limit): \(command)")
            }
        }
        #expect(sandbox.list("main") == "* 0  Home\n  1  Search\n")
    }

    @Test func helpNeedsNoDescriptorAndReadsItsArguments() {
        let sandbox = Sandbox()
        let help = sandbox.runWithoutDatabase(["help", "select"])
        #expect(help.code == 0)
        let limited = sandbox.runProcess("/usr/bin/prlimit", ["--nofile=\(Self.fewestDescriptors)", "--", TabstoreBinary.path, "help", "select"])
        #expect(limited == help)
    }

    /// libdispatch traps when it cannot make its event loop for want of descriptors: at
    /// every limit a watch either refuses at once or runs, and Ctrl-C ends it with 0,
    /// leaving no -wal or -shm behind.
    @Test func aWatchUnderEveryDescriptorLimitRefusesInOneLineOrRunsUntilCtrlC() throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Search")
        let prefix = "tabstore: error: "
        let refusals: Set<String> = [
            "cannot open database \(sandbox.database): no file descriptor is free (this process has too many files open)",
            "cannot watch: no file descriptor is free (this process has too many files open)",
            "cannot watch: no file descriptor is free for its signal pipe (this process has too many files open)",
            "cannot watch: too few file descriptors are free to follow changes (this process has too many files open)",
        ]
        var outcomes: [String] = []
        for limit in Self.fewestDescriptors...20 {
            let watch = try RunningTabstore(
                sandbox, executable: "/usr/bin/prlimit",
                ["--nofile=\(limit)", "--", TabstoreBinary.path, "--db", sandbox.database, "watch", "main"], environment: [:]
            )
            let started = watch.wait { $0.stderr.contains("watching main") || !$0.stderr.isEmpty && $0.stderr.hasSuffix("\n") }
            #expect(started, "ulimit -n \(limit): \(watch.stderr)")
            if watch.stderr == "watching main (Ctrl-C to stop)\n" {
                watch.send(SIGINT)
                let ended = watch.exit()
                #expect(ended?.status == 0 && ended?.bySignal == false, "ulimit -n \(limit): \(String(describing: ended))")
                #expect(watch.stdout == "")
                outcomes.append("ran")
            } else {
                let ended = watch.exit()
                #expect(ended?.status == 3 && ended?.bySignal == false, "ulimit -n \(limit): \(String(describing: ended)) \(watch.stderr)")
                let line = watch.stderr.hasPrefix(prefix) ? String(watch.stderr.dropFirst(prefix.count).dropLast()) : watch.stderr
                #expect(refusals.contains(line), "ulimit -n \(limit): \(watch.stderr)")
                outcomes.append("refused")
            }
            #expect(!sandbox.exists(sandbox.database + "-wal") && !sandbox.exists(sandbox.database + "-shm"), "ulimit -n \(limit)")
        }
        // Both outcomes are reached: the limits span the point where a watch can run.
        #expect(outcomes.first == "refused" && outcomes.last == "ran", "\(outcomes)")
        #expect(sandbox.list("main") == "* 0  Home\n  1  Search\n")
    }

    /// Under a memory limit too small for libdispatch's thread stacks, libdispatch retries
    /// forever (the caller's thread too): the watch would hang, deaf to Ctrl-C.
    @Test func aWatchUnderEveryMemoryLimitRefusesInOneLineOrRunsUntilCtrlC() throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        var outcomes: [String] = []
        for megabytes in stride(from: 20, through: 200, by: 20) {
            let watch = try RunningTabstore(
                sandbox, executable: "/usr/bin/prlimit",
                ["--as=\(megabytes << 20)", "--", TabstoreBinary.path, "--db", sandbox.database, "watch", "main"], environment: [:]
            )
            _ = watch.wait { $0.stderr.hasSuffix("\n") }
            if watch.stderr == "watching main (Ctrl-C to stop)\n" {
                watch.send(SIGINT)
                let ended = watch.exit()
                #expect(ended?.status == 0 && ended?.bySignal == false, "\(megabytes) MiB: \(String(describing: ended))")
                outcomes.append("ran")
            } else if watch.stderr.contains("error while loading shared libraries") {
                // A dynamically linked build cannot even be loaded at the smallest limits.
                #expect(!TabstoreBinary.isReleaseBuild, "\(megabytes) MiB: \(watch.stderr)")
                _ = watch.exit()
            } else {
                let ended = watch.exit()
                #expect(ended?.status == 3 && ended?.bySignal == false, "\(megabytes) MiB: \(String(describing: ended))")
                #expect(watch.stderr == "tabstore: error: cannot watch: the system will not start a thread (Resource temporarily unavailable)\n", "\(megabytes) MiB")
                outcomes.append("refused")
            }
        }
        #expect(outcomes.contains("refused") && outcomes.last == "ran", "\(outcomes)")
    }

    /// Swift ends the process when an allocation fails: an import asks for its memory first.
    @Test func anImportUnderEveryMemoryLimitRefusesInOneLineOrImports() throws {
        let sandbox = Sandbox()
        let titles = (0..<30_000).map { "\"tab number \($0) with a longer title\"" }.joined(separator: ",")
        let document = sandbox.write(#"{"format":"tabstore","version":1,"sets":[{"name":"big","selectedIndex":0,"tabs":["# + titles + "]}]}", to: "big.json")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: document)[.size] as? Int)
        var outcomes: [String] = []
        for limit in [24, 40, 64, 96, 2048] {
            let output = run(sandbox, limits: ["--as=\(limit << 20)"], ["import", document])
            if output.code == 0 {
                #expect(output == .ok("imported 1 set\n"), "\(limit) MiB")
                outcomes.append("imported")
                break
            }
            if output.stderr.contains("error while loading shared libraries") {
                #expect(!TabstoreBinary.isReleaseBuild, "\(limit) MiB: \(output)")
                continue
            }
            let refusals = [
                "tabstore: error: cannot import \(document): not enough memory can be had to read it\n",
                "tabstore: error: cannot import \(document): not enough memory can be had for a document of \(size >> 20) MiB (about \((16 * size) >> 20) MiB needed)\n",
            ]
            #expect(output.code == 3 && output.stdout == "", "\(limit) MiB: \(output)")
            #expect(refusals.contains(output.stderr), "\(limit) MiB: \(output)")
            #expect(!sandbox.exists(sandbox.database), "a refused import creates no database")
            outcomes.append("refused")
        }
        #expect(outcomes.first == "refused" && outcomes.last == "imported", "\(outcomes)")
    }
}
