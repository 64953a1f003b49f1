import Foundation
@testable import TabStoreCLI
import TabStoreKit
import Testing
import TabStoreTestSupport

/// Writers killed with SIGKILL at random moments. The file always opens,
/// passes `integrity_check`, and keeps every write acknowledged before the kill.
@Suite struct CrashSafetyTests {
    @Test func killedWritersLoseNoAcknowledgedWrite() throws {
        let sandbox = Sandbox()
        // A large set makes `import --replace` run long enough to be killed mid-transaction.
        let bigTitles = (0..<3000).map { "big-\($0)" }
        let document = TabStoreDocument(sets: [.init(name: "big", selectedIndex: 7, tabs: bigTitles)])
        let documentPath = sandbox.write(document.json(), to: "big.json")

        // Kill moments spread over each command's life. A first run (which makes the file,
        // or the big set) outlasts the later ones, so each kind's kill window adapts: it
        // halves when the process finished before its kill moment and grows by a tenth when
        // the kill landed, settling where most kills land anywhere in a run's life.
        var window = [
            true: try duration(["--db", sandbox.database, "add", "crash", "warm-up"]),
            false: try duration(["--db", sandbox.database, "import", documentPath, "--replace"]),
        ]
        #expect(sandbox.run("import", sandbox.write(TabStoreDocument(sets: [.init(name: "big", selectedIndex: 0, tabs: ["old"])]).json(), to: "old.json"), "--replace").code == 0)

        var random = SplitMix64(seed: 0x7AB5_7012)
        var acknowledged = ["warm-up"]
        var kills = 0
        // Until 40 processes died mid-run (a run that finished first is not a kill).
        for round in 0..<600 where kills < 40 {
            let title = "t\(round)"
            let isAdd = round % 2 == 0
            let arguments = isAdd
                ? ["--db", sandbox.database, "add", "crash", title]
                : ["--db", sandbox.database, "import", documentPath, "--replace"]
            let process = try start(arguments)
            let microseconds = UInt64(window[isAdd]! * 1_000_000)
            usleep(UInt32(random.next() % max(microseconds, 1)))
            let killed = process.isRunning
            if killed {
                kill(process.processIdentifier, SIGKILL)
            }
            window[isAdd]! *= killed ? 1.1 : 0.5
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { kills += 1 }
            let finished = process.terminationReason == .exit && process.terminationStatus == 0
            if finished && isAdd { acknowledged.append(title) }

            // The file opens and is sound after every kill.
            let store = try TabStore(path: sandbox.database)
            #expect(integrityCheck(sandbox.database) == "ok", "round \(round)")
            let crashTitles = (try? store.tabSet(named: "crash").tabs.map(\.title)) ?? []
            #expect(Set(acknowledged).isSubset(of: Set(crashTitles)), "round \(round): lost \(Set(acknowledged).subtracting(crashTitles))")
            // The import is atomic: the big set is the old one or the whole new one.
            let big = try store.tabSet(named: "big")
            #expect(big.tabs.map(\.title) == ["old"] || (big.tabs.map(\.title) == bigTitles && big.selectedIndex == 7), "round \(round)")
        }
        #expect(kills >= 40, "only \(kills) processes were killed while running")
        #expect(acknowledged.count > 1)
    }

    private func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TabstoreBinary.path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Seconds one unkilled run of the command takes.
    private func duration(_ arguments: [String]) throws -> Double {
        let began = ContinuousClock.now
        let process = try start(arguments)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let elapsed = ContinuousClock.now - began
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
