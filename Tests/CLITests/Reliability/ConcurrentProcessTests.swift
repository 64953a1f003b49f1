import Dispatch
import Foundation
import TabStoreSQLite
@testable import TabStoreKit
import Testing

/// Many `tabstore` processes write one file at once. None sees "database is
/// locked", and the file ends exactly as the acknowledged commands imply.
@Suite struct ConcurrentProcessTests {
    @Test func eightProcessesOfMixedCommandsLoseNothing() throws {
        let sandbox = Sandbox()
        sandbox.add("shared", "start")
        let workers = 8, rounds = 40  // 3 commands a round (some 4): > 100 commands per worker
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for round in 0..<rounds {
                let title = "w\(worker)-\(round)"
                var commands = [["add", "shared", title], ["select", "shared", "--title", title], ["select", "shared", "0"]]
                if round % 2 == 0 { commands.append(["move", "shared", "--title", title, String(round % 5)]) }
                for command in commands {
                    let output = sandbox.run(command)
                    if output.code != 0 { failures.append("worker \(worker): \(command.joined(separator: " ")): \(output)") }
                }
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all.prefix(5))")

        let store = try TabStore(path: sandbox.database)
        let set = try store.tabSet(named: "shared")
        let added = ["start"] + (0..<workers).flatMap { worker in (0..<rounds).map { "w\(worker)-\($0)" } }
        // Every added tab is there once; positions are the contiguous indices of `tabs`.
        #expect(set.tabs.count == added.count)
        #expect(Set(set.tabs.map(\.title)) == Set(added))
        #expect(set.tabs.filter(\.isSelected).count == 1)
        // Every change got its own revision: the journal holds 1...revision without a gap,
        // and one "added" per acknowledged add.
        let history = try store.history(of: "shared", limit: 100_000)
        #expect(history.map(\.revision) == Array((1...set.revision).reversed()))
        #expect(history.filter { if case .added = $0.event { true } else { false } }.count == added.count)
        #expect(integrityCheck(sandbox.database) == "ok")
    }
}

extension ConcurrentProcessTests {
    /// Eight processes create one new file at once, fifty times over. Every
    /// one succeeds: none says "still locked ... after the busy timeout" without waiting.
    /// The same race made certain: turning a new file to WAL upgrades a read lock to a
    /// write lock, which SQLite's busy handler does not cover. `add` waits for another
    /// process's write lock on the new file instead of failing at once.
    @Test func creatingWaitsForAWriteLockOnTheNewFile() throws {
        let sandbox = Sandbox()
        let holder = try Database(path: sandbox.database, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        // The holder's COMMIT needs the file to itself for a moment, and the waiting
        // `add` reads it now and then as it retries: the holder waits too, as any
        // connection of tabstore's would (a busy COMMIT here failed the test under load).
        holder.setBusyTimeout(milliseconds: 5000)
        try holder.executeScript("BEGIN IMMEDIATE")
        let adding = try RunningTabstore(sandbox, ["add", "s", "x"])
        usleep(300_000)
        try holder.executeScript("COMMIT")
        let exit = adding.exit()
        #expect(exit?.status == 0 && adding.stderr == "", "\(adding.stderr)")
        #expect(adding.stdout == "added 1 tab to s\n")
    }

    @Test func eightProcessesCreateOneNewFileAtOnceFiftyTimes() throws {
        let sandbox = Sandbox()
        let rounds = 50, workers = 8
        for round in 1...rounds {
            let database = sandbox.folder + "/new-\(round).sqlite"
            // All eight are started before any is waited for.
            let processes = try (1...workers).map { worker in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: TabstoreBinary.path)
                process.arguments = ["--db", database, "add", "s", "p\(worker)"]
                process.standardOutput = FileHandle.nullDevice
                let errors = Pipe()
                process.standardError = errors
                try process.run()
                return (process, errors)
            }
            for (worker, (process, errors)) in processes.enumerated() {
                let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationStatus == 0 && message.isEmpty, "round \(round) worker \(worker + 1): \(message)")
            }
            let titles = try TabStore(path: database).tabSet(named: "s").tabs.map(\.title)
            #expect(titles.sorted() == (1...workers).map { "p\($0)" }, "round \(round)")
        }
    }
}

/// Failures collected from several threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    func append(_ item: String) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

/// `PRAGMA integrity_check` by the sqlite3 shell, an independent reader of the file.
func integrityCheck(_ path: String) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [path, "PRAGMA integrity_check"]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return "sqlite3 is not installed" }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

extension Sandbox {
    /// Runs `tabstore --db <sandbox database> ARGUMENTS` from an array.
    func run(_ arguments: [String]) -> Output {
        runWithoutDatabase(["--db", database] + arguments)
    }
}
