import Foundation
import Synchronization
import TabStoreTestSupport
import Testing

/// A primary with a synchronous standby, reached through one URL naming both: the
/// primary is killed (every process at once, as a machine dies) while commands run and a
/// `watch` waits, and the standby is promoted within 3 s. Commands keep working.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct ServerFailoverTests {
    /// One command of the loop and what became of it.
    struct Attempt {
        let arguments: [String]
        let started: ContinuousClock.Instant
        let ended: ContinuousClock.Instant
        let output: Output
    }

    /// Writers at once, each running one command after the other.
    static let writers = 3

    /// The titles `list SET` printed (the loop's titles have no spaces).
    static func titles(_ listed: String) -> [String] {
        listed.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
    }

    @Test func commandsAndAWatchOutliveThePrimaryDyingAndItsStandbyBeingPromoted() throws {
        let pair = try ReplicatedPostgres.start()
        defer { pair.destroy() }
        let database = try pair.createDatabase()
        let url = pair.url(database: database, query: "target_session_attrs=read-write")
        let shown = pair.url(database: database)
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["--db", url, "add", "s", "w-0"]) == .ok("added 1 tab to s\n"))
        let watch = try RunningTabstore(sandbox, ["watch", "s"], database: url)
        #expect(watch.wait { $0.stderr == "watching s (Ctrl-C to stop)\n" })

        // Writers, each one command after the other, every third a read.
        let attempts = Mutex<[Attempt]>([])
        let stop = Atomic<Bool>(false)
        let done = DispatchGroup()
        for writer in 0..<Self.writers {
            done.enter()
            Thread {
                var number = 1
                while !stop.load(ordering: .relaxed) {
                    let arguments = number % 3 == 0 ? ["list", "s"] : ["add", "s", "w\(writer)-\(number)"]
                    let started = ContinuousClock.now
                    let output = sandbox.runWithoutDatabase(["--db", url] + arguments)
                    attempts.withLock { $0.append(Attempt(arguments: arguments, started: started, ended: .now, output: output)) }
                    number += 1
                }
                done.leave()
            }.start()
        }
        let clock = ContinuousClock()
        #expect(RunningTabstore.poll { attempts.withLock { $0.count } >= 10 })
        let death = clock.now
        pair.primary.killEveryProcess()
        usleep(1_500_000)
        try pair.promoteStandby()
        let promoted = clock.now
        #expect(promoted - death < .seconds(3))
        #expect(RunningTabstore.poll { attempts.withLock { $0.filter { $0.started > promoted }.count } >= 10 })
        stop.store(true, ordering: .relaxed)
        done.wait()
        let all = attempts.withLock { $0 }

        // The new primary alone, as it stands.
        let newPrimary = pair.standby.url(database: database)
        let listed = sandbox.runWithoutDatabase(["--db", newPrimary, "list", "s"])
        #expect(listed.code == 0)
        let titles = Self.titles(listed.stdout)
        let saved = Set(titles)
        for attempt in all {
            let title = attempt.arguments.count == 3 ? attempt.arguments[2] : nil
            if attempt.output.code == 0 {
                if let title {
                    #expect(attempt.output == .ok("added 1 tab to s\n"))
                    // No acknowledged write lost.
                    #expect(saved.contains(title), "\(title) was acknowledged but is not on the new primary")
                } else {
                    // A read sees every write acknowledged before it started.
                    let acknowledged = all.filter { $0.arguments.count == 3 && $0.output.code == 0 && $0.ended < attempt.started }
                    #expect(Set(acknowledged.map { $0.arguments[2] }).isSubset(of: Set(Self.titles(attempt.output.stdout))), "\(attempt.output)")
                }
                continue
            }
            // Inside the window only, each failure one true line.
            #expect(attempt.started < promoted, "\(attempt.arguments) started after the promotion and failed: \(attempt.output)")
            #expect(attempt.output.code == 3 && attempt.output.stdout == "")
            let lines = attempt.output.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2 && lines[1] == "", "\(attempt.output)")
            let message = String(lines[0])
            if message == "tabstore: error: lost the connection to \(shown) while committing; the change may or may not have been saved" {
                // A COMMIT lost in flight, and no server answered within the window to say
                // what became of it: either outcome is true to the message.
                continue
            }
            let nothingChanged = message.hasPrefix("tabstore: error: cannot connect to \(shown): ")
                || message == "tabstore: error: lost the connection to \(shown); nothing was changed"
                || (message.hasPrefix("tabstore: error: \(shown) stopped answering after ") && message.hasSuffix(" s; nothing was changed"))
            #expect(nothingChanged, "\(message)")
            if let title { #expect(!saved.contains(title), "\(message), yet \(title) was saved") }
        }

        // watch: every add after the first, once each, in order: no gap, no duplicate.
        let expected = titles.enumerated().dropFirst().map { index, title in "\(index + 1)  TIME  added 1 tab at \(index): \(title)" }
        #expect(watch.wait { $0.stdoutLines.count >= expected.count })
        watch.send(SIGINT)
        #expect(watch.exit()?.status == 0)
        #expect(watch.stdoutLines.map(maskingTimes) == expected)
    }

    /// A COMMIT the primary took but could not hand to its synchronous standby (shut down
    /// meanwhile, so it received none of it) when it died: the command looks its change up
    /// on the promoted standby, does not find it, and so adds the tab there, once.
    @Test func aCommitInFlightWhenThePrimaryDiesIsSettledOnTheNewPrimary() throws {
        let pair = try ReplicatedPostgres.start()
        defer { pair.destroy() }
        let database = try pair.createDatabase()
        let url = pair.url(database: database)
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["--db", url, "add", "s", "a"]) == .ok("added 1 tab to s\n"))
        pair.standby.stop()
        // What is tested is the settling, not the window: restarting and promoting the
        // standby can take as long as the default window on a loaded machine (and longer in
        // a CI run, where the add then gave up in time, as it should).
        let add = try RunningTabstore(sandbox, ["add", "s", "b"], database: url, environment: ["TABSTORE_FAILOVER_WINDOW": "60"])
        #expect(RunningTabstore.poll {
            (try? pair.primary.psql(database, "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'")) == "1\n"
        })
        pair.primary.killEveryProcess()
        try pair.standby.restart()
        try pair.promoteStandby()
        #expect(add.exit()?.status == 0, "\(add.stderr)")
        #expect(add.stdout == "added 1 tab to s\n" && add.stderr == "")
        #expect(sandbox.runWithoutDatabase(["--db", url, "list", "s"]) == .ok("* 0  a\n  1  b\n"))
        #expect(sandbox.runWithoutDatabase(["--db", url, "history", "s"]).stdout.split(separator: "\n").count == 2)
    }
}
