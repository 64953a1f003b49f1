import Foundation
import TabStoreKit
import TabStoreTestSupport

/// Whole processes, as a shell script would use them: the built `tabstore` against the
/// `sqlite3` shell doing the same work, with a bare Swift hello-world as the floor, and what
/// handing a server URL to `tabstore-postgres` costs.
struct ProcessTimings {
    let size: BenchSize
    let folder: ScratchFolder

    /// A command costs about what the `sqlite3` shell costs running the same statement:
    /// the time a person or a script that runs it by the hundred waits for.
    static let commandTarget = Target.ratio(atMost: 1.15)

    /// The programs compared; a missing one is named in its rows instead of stopping the bench.
    private struct Programs {
        let tabstore: String?
        let companion: String?
        let hello: String?
        let sqlite3: String?
        /// What `sqlite3` runs with: its copied libraries first.
        let sqlite3Environment: [String: String]
        let folder = executableFolder()

        /// Every program is timed as a fresh copy in `installed`, `sqlite3` with the shared
        /// libraries it loads (`tabstore` finds `tabstore-postgres` beside it there). How a
        /// program's file sits in the page cache moves its start-up by up to 20%: a file fresh
        /// from the linker ran slower than a copy of itself, and a fresh copy (of `sqlite3`
        /// and its libraries too) faster than the same bytes read back from disk. Copying
        /// each side puts them all alike, as just installed.
        init(installedIn installed: ScratchFolder) {
            let copy = { (path: String, name: String) -> String in
                let copied = installed.file(name)
                return (try? FileManager.default.copyItem(atPath: path, toPath: copied)) == nil ? path : copied
            }
            let built = { (name: String) -> String? in
                let path = executableFolder() + "/" + name
                return access(path, X_OK) == 0 ? copy(path, name) : nil
            }
            tabstore = built("tabstore")
            companion = built("tabstore-postgres")
            hello = built("TabStoreBenchHello")
            let libraries = installed.file("sqlite3-libraries")
            try? FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
            sqlite3 = findOnPath("sqlite3").map { shell in
                for library in sharedLibraries(of: shell) {
                    _ = copy(library, "sqlite3-libraries/" + (library as NSString).lastPathComponent)
                }
                return copy(shell, "sqlite3")
            }
            sqlite3Environment = ["LD_LIBRARY_PATH": libraries]
        }

        func missing(_ name: String) -> String {
            name == "sqlite3"
                ? "sqlite3 is not on PATH (apt-get install sqlite3)"
                : "no \(name) binary next to the bench in \(folder): run `swift build -c release` first"
        }
    }

    func run() throws -> [Row] {
        let programs = Programs(installedIn: folder)
        let database = folder.file("processes.sqlite")
        _ = try Fixture.store(at: database)  // created, migrated and closed before any process runs

        let timings = time(programs, database: database)
        return timings + peakMemory(programs, database: database)
    }

    // MARK: wall time

    /// A command measured: its variants, used in turn, and the exit status it must end with.
    private struct Measured {
        var variants: [Command]
        var status: Int32 = 0
    }

    /// A URL whose run ends as soon as libpq is asked for: the same work on both sides of
    /// the hand-over row, with no server and no network in it.
    private static let unloadableLibpq = "/nonexistent/libpq.so.5"

    /// Median wall time (ms) of each command and paired ratios over alternating runs, or why there are none.
    private func time(_ programs: Programs, database: String) -> [Row] {
        let runs = size.pick(100, quick: 20)
        progress("processes: \(runs) alternating runs each of tabstore, tabstore-postgres, sqlite3 and hello")
        // Two variants of each write, selecting tab 1 then tab 0, so each run is a change.
        let update = { (position: Int) in
            """
            UPDATE tab_set SET revision = revision + 1, selected_tab_id = \
            (SELECT id FROM tab WHERE set_id = tab_set.id AND position = \(position)) \
            WHERE name = '\(Fixture.setName)'
            """
        }
        let query = """
            SELECT t.position, t.title FROM tab_set s JOIN tab t ON t.id = s.selected_tab_id \
            WHERE s.name = '\(Fixture.setName)'
            """
        let server = ["--db", "postgresql://127.0.0.1:1/tabs", "restore", Fixture.setName]
        let noLibpq = ["TABSTORE_LIBPQ": Self.unloadableLibpq]
        func measured(_ program: String?, status: Int32 = 0, environment: [String: String] = [:], _ arguments: (Int) -> [String]) -> Measured {
            Measured(variants: program.map { program in (0..<2).map { Command([program] + arguments($0), adding: environment) } } ?? [], status: status)
        }
        let commands: [String: Measured] = [
            "select": measured(programs.tabstore) { ["--db", database, "select", Fixture.setName, "\(($0 + 1) % 2)"] },
            "update": measured(programs.sqlite3, environment: programs.sqlite3Environment) { [database, update(($0 + 1) % 2)] },
            "restore": measured(programs.tabstore) { _ in ["--db", database, "restore", Fixture.setName] },
            "query": measured(programs.sqlite3, environment: programs.sqlite3Environment) { _ in [database, query] },
            "hello": measured(programs.hello) { _ in [] },
            // Both end with exit 3 when libpq cannot be loaded: the difference is the hand-over.
            "handOver": measured(programs.tabstore, status: 3, environment: noLibpq) { _ in server },
            "companion": measured(programs.companion, status: 3, environment: noLibpq) { _ in server },
        ]
        let names = ["select", "update", "hello", "restore", "query", "handOver", "companion"]
        // Each round in its own order: a program that always ran right after another (the
        // hello, say) would always find the caches as that one left them.
        var random = SplitMix64(seed: 0x9D0C_E55E)

        var times: [String: [Double]] = [:]
        var failures: [String: String] = [:]
        let stderrPath = folder.file("spawn.stderr")
        // Three warm-up rounds: the file and the binaries are in the page cache after them.
        for round in -3..<runs {
            for name in names.shuffled(using: &random) {
                guard failures[name] == nil, let command = commands[name], !command.variants.isEmpty else { continue }
                let variant = command.variants[(round + 3) % command.variants.count]
                do {
                    let run = try variant.run(stderrPath: stderrPath)
                    if run.status != command.status {
                        failures[name] = "\(programName(of: variant)) exited with status \(run.status): \(firstLine(ofFile: stderrPath))"
                    } else if round >= 0 {
                        times[name, default: []].append(run.milliseconds)
                    }
                } catch {
                    failures[name] = "\(error)"
                }
            }
        }

        func value(_ name: String) -> Double? { times[name].map(median) }
        /// The median of `name`'s time over `peer`'s, round by round.
        func paired(_ name: String, _ peer: String) -> RatioOrder {
            guard let mine = times[name], let theirs = times[peer], mine.count == theirs.count, !mine.isEmpty else { return .paired(nil) }
            return .paired(median(zip(mine, theirs).map { $0 / $1 }))
        }
        /// Why a row has no value: the failure or the missing program of either side.
        func why(_ names: (command: String, program: String)...) -> String? {
            let reasons = names.compactMap { name, program in
                failures[name] ?? (commands[name]?.variants.isEmpty == false ? nil : programs.missing(program))
            }
            return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
        }
        return [
            Row(
                "selectProcessVsSqlite3", "`tabstore select` process vs `sqlite3 FILE \"UPDATE ...\"` (paired)", unit: .milliseconds,
                tabstore: value("select"), peer: value("update"), peerName: "sqlite3", ratio: paired("select", "update"),
                target: Self.commandTarget, note: why(("select", "tabstore"), ("update", "sqlite3"))
            ),
            Row(
                "helloProcessVsSqlite3Update", "bare Swift hello process vs `sqlite3 ... \"UPDATE ...\"` (paired)", unit: .milliseconds,
                tabstore: value("hello"), peer: value("update"), peerName: "sqlite3", ratio: paired("hello", "update"), target: nil,
                note: why(("hello", "TabStoreBenchHello"), ("update", "sqlite3"))
            ),
            Row(
                "restoreProcessVsSqlite3", "`tabstore restore` process vs `sqlite3 FILE \"SELECT ...\"` (paired)", unit: .milliseconds,
                tabstore: value("restore"), peer: value("query"), peerName: "sqlite3", ratio: paired("restore", "query"),
                target: Self.commandTarget, note: why(("restore", "tabstore"), ("query", "sqlite3"))
            ),
            Row(
                "helloProcessVsSqlite3Select", "bare Swift hello process vs `sqlite3 ... \"SELECT ...\"` (paired)", unit: .milliseconds,
                tabstore: value("hello"), peer: value("query"), peerName: "sqlite3", ratio: paired("hello", "query"), target: nil,
                note: why(("hello", "TabStoreBenchHello"), ("query", "sqlite3"))
            ),
            Row(
                "serverHandOverVsCompanion", "a server URL: `tabstore` handing over vs `tabstore-postgres` itself (paired, libpq unloadable)",
                unit: .milliseconds, tabstore: value("handOver"), peer: value("companion"), peerName: "tabstore-postgres",
                ratio: paired("handOver", "companion"), target: nil,
                note: why(("handOver", "tabstore"), ("companion", "tabstore-postgres"))
            ),
        ]
    }

    private func programName(of command: Command) -> String {
        ((command.arguments[0] as NSString).lastPathComponent)
    }

    // MARK: peak memory

    /// Peak resident memory of `tabstore select` against the bare hello process, and
    /// of hello against `sqlite3` for reference.
    ///
    /// Measured by GNU time, whose own `wait4` gives the child's `ru_maxrss`: `wait4`
    /// in the bench would not do, because Linux folds the parent's peak into a
    /// (v)forked child's when it calls exec, so every child would "use" the bench's own
    /// tens of MiB. GNU time is a small C program: its share is below 2 MiB.
    private func peakMemory(_ programs: Programs, database: String) -> [Row] {
        let figure = "peak memory: `tabstore select` process vs bare Swift hello"
        let reference = "peak memory: bare Swift hello vs `sqlite3 ... \"UPDATE ...\"`"
        let target = Target.ratio(atMost: 1)
        func missing(because note: String) -> [Row] {
            [
                .missing("selectPeakMemoryVsHello", figure, unit: .mebibytes, target: target, because: note),
                .missing("helloPeakMemoryVsSqlite3", reference, unit: .mebibytes, target: nil, because: note),
            ]
        }
        guard access("/usr/bin/time", X_OK) == 0 else {
            return missing(because: "needs GNU time at /usr/bin/time (apt-get install time)")
        }
        guard let tabstore = programs.tabstore, let hello = programs.hello, let sqlite3 = programs.sqlite3 else {
            let absent = programs.tabstore == nil ? "tabstore" : programs.hello == nil ? "TabStoreBenchHello" : "sqlite3"
            return missing(because: programs.missing(absent))
        }
        progress("processes: peak memory")
        let report = folder.file("maxrss.txt")
        let stderrPath = folder.file("maxrss.stderr")
        /// The median peak, in MiB, of several runs.
        func peak(_ arguments: [String], environment: [String: String] = [:]) throws -> Double {
            var kibibytes: [Double] = []
            for _ in 0..<size.pick(10, quick: 4) {
                let run = try Command(["/usr/bin/time", "-f", "%M", "-o", report] + arguments, adding: environment).run(stderrPath: stderrPath)
                guard run.status == 0 else {
                    throw BenchError("\((arguments[0] as NSString).lastPathComponent) exited with status \(run.status): \(firstLine(ofFile: stderrPath))")
                }
                let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
                guard let last = text.split(separator: "\n").last, let value = Double(last) else {
                    throw BenchError("GNU time wrote no peak memory")
                }
                kibibytes.append(value)
            }
            return median(kibibytes) / 1024
        }
        do {
            let mine = try peak([tabstore, "--db", database, "select", Fixture.setName, "1"])
            let floor = try peak([hello])
            let shell = try peak(
                [sqlite3, database, "UPDATE tab_set SET revision = revision + 1 WHERE name = '\(Fixture.setName)'"],
                environment: programs.sqlite3Environment)
            return [
                Row("selectPeakMemoryVsHello", figure, unit: .mebibytes, tabstore: mine, peer: floor, peerName: "hello", target: target),
                Row("helloPeakMemoryVsSqlite3", reference, unit: .mebibytes, tabstore: floor, peer: shell, peerName: "sqlite3", target: nil),
            ]
        } catch {
            return missing(because: "\(error)")
        }
    }
}
