import Dispatch
import Foundation
import TabStoreKit
import TabStorePostgres
import TabStoreTestSupport
import Testing

/// Many `tabstore` processes on one server database at once. Each worker's commands run
/// on its own set, and the same commands on a file of its own one after another: every
/// output and the final export must match the file's. All workers also add to one shared
/// set, whose final state is checked by its invariants.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct ServerConcurrencyTests {
    @Test func eightProcessesOfAHundredMixedCommandsEach() throws {
        let server = try ServerSandbox()
        server.succeed("add", "shared", "start")
        let workers = 8, commands = 100
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let set = "w\(worker)"
            let file = server.sandbox.folder + "/oracle-\(worker).sqlite"
            var script = WorkerScript(set: set, seed: UInt64(worker) + 1)
            for number in 0..<commands {
                let command = number % 10 == 9 ? ["add", "shared", "\(set)-\(number)"] : script.next()
                let onServer = server.run(command)
                let onFile = server.sandbox.runWithoutDatabase(["--db", file] + command)
                if onServer.code != 0 || onServer.maskingIDs != onFile.maskingIDs {
                    failures.append("\(set) #\(number) \(command.joined(separator: " ")):\nserver \(onServer)\nfile \(onFile)")
                }
            }
            let exported = server.run("export", set), expected = server.sandbox.runWithoutDatabase(["--db", file, "export", set])
            if exported.maskingIDs != expected.maskingIDs || exported.code != 0 {
                failures.append("\(set) export:\nserver \(exported)\nfile \(expected)")
            }
            let history = server.run("history", set, "--limit", "1000")
            let fileHistory = server.sandbox.runWithoutDatabase(["--db", file, "history", set, "--limit", "1000"])
            if maskingTimes(history.stdout) != maskingTimes(fileHistory.stdout) {
                failures.append("\(set) history:\nserver \(history)\nfile \(fileHistory)")
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all.prefix(3).joined(separator: "\n"))")

        // The shared set: every acknowledged add is there once; revisions 1...N, no gap.
        let shared = server.run("list", "shared")
        let titles = shared.stdout.split(separator: "\n").map { $0.split(separator: " ").last.map(String.init) ?? "" }
        let added = ["start"] + (0..<workers).flatMap { worker in (0..<commands).filter { $0 % 10 == 9 }.map { "w\(worker)-\($0)" } }
        #expect(titles.sorted() == added.sorted())
        let history = server.run("history", "shared", "--limit", "1000")
        #expect(revisions(inHistory: history.stdout) == Array((1...added.count).reversed()))
        #expect(server.run("info").stdout.hasSuffix("check:           ok\n"))
    }

    /// Sixteen processes open an empty database at once: each migrates it or waits for the
    /// one that does; all succeed and the schema is made once.
    @Test func sixteenAddsOnAnEmptyDatabase() throws {
        let server = try ServerSandbox()
        let outputs = Outputs()
        DispatchQueue.concurrentPerform(iterations: 16) { worker in
            outputs.set(worker, server.run("add", "s\(worker)", "t"))
        }
        for worker in 0..<16 {
            #expect(outputs.get(worker) == .ok("added 1 tab to s\(worker)\n"))
        }
        #expect(try server.psql("SELECT count(*), max(version) FROM tabstore_schema") == "1|\(PostgresSchema.latestVersion)\n")
        #expect(try server.psql("SELECT count(*) FROM tab_set") == "16\n")
        #expect(server.run("info").stdout.hasSuffix("sets:            16\ncheck:           ok\n"))
    }
}

/// One worker's commands on its own set, kept valid by a count of its tabs and removed tabs.
struct WorkerScript {
    let set: String
    var random: SplitMix64
    var count = 0
    var removed = 0
    var made = 0

    init(set: String, seed: UInt64) {
        self.set = set
        random = SplitMix64(seed: seed)
    }

    mutating func next() -> [String] {
        if count < 2 { return add() }
        switch random.below(6) {
        case 0: return add()
        case 1: return ["select", set, String(random.below(count))]
        case 2: return ["move", set, String(random.below(count)), String(random.below(count))]
        case 3:
            count -= 1
            removed += 1
            return ["remove", set, String(random.below(count + 1))]
        case 4:
            made += 1
            return ["rename", set, String(random.below(count)), "\(set)-r\(made)"]
        default:
            guard removed > 0 else { return add() }
            removed -= 1
            count += 1
            return ["reopen", set]
        }
    }

    private mutating func add() -> [String] {
        made += 1
        count += 1
        return ["add", set, "\(set)-t\(made)"]
    }
}

/// Outputs collected from concurrent workers by index.
final class Outputs: @unchecked Sendable {
    private let lock = NSLock()
    private var outputs: [Int: Output] = [:]

    func set(_ index: Int, _ output: Output) { lock.withLock { outputs[index] = output } }
    func get(_ index: Int) -> Output? { lock.withLock { outputs[index] } }
}
