import Foundation
import Testing
import TabStoreTestSupport
@testable import TabStoreKit
@testable import TabStorePostgres

/// A transport that loses, repeats, delays and reorders messages, and can be cut off: each
/// message goes through JSON both ways, as over an app's own HTTPS.
final class FaultyTransport: TabSyncServer {
    let server: TabStore
    private var random: SplitMix64
    var partitioned = false
    /// Pushes held back, delivered later (after newer ones).
    private var delayed: [TabSyncPush] = []
    private(set) var faults: [String: Int] = [:]

    init(server: TabStore, seed: UInt64) {
        self.server = server
        random = SplitMix64(seed: seed)
    }

    private static let lost = TabStoreError(.serverUnavailable(server: "test transport", reason: "the message was lost"))

    private func fault(_ kind: String) { faults[kind, default: 0] += 1 }

    /// `request` encoded, decoded on the far side, answered, and the answer back the same way.
    private func carry<Request: Codable, Answer: Codable>(
        _ request: Request, _ serve: (Request) throws(TabStoreError) -> Answer
    ) throws(TabStoreError) -> Answer {
        let far: Request, answer: Answer
        do { far = try JSONDecoder().decode(Request.self, from: JSONEncoder().encode(request)) } catch { throw Self.lost }
        let served = try serve(far)
        do { answer = try JSONDecoder().decode(Answer.self, from: JSONEncoder().encode(served)) } catch { throw Self.lost }
        return answer
    }

    /// Delivers the pushes held back, whatever came since: stale ones, out of order.
    func deliverDelayed() {
        for push in delayed { _ = try? carry(push, server.push) }
        delayed.removeAll()
    }

    func push(_ request: TabSyncPush) throws(TabStoreError) -> TabSyncPushResult {
        if partitioned {
            fault("partitioned")
            throw Self.lost
        }
        if !delayed.isEmpty, random.below(3) == 0 {
            fault("reordered")
            _ = try? carry(delayed.removeFirst(), server.push)
        }
        switch random.below(12) {
        case 0:
            fault("push lost")
            throw Self.lost
        case 1:
            fault("push answer lost")
            _ = try carry(request, server.push)
            throw Self.lost
        case 2:
            fault("push duplicated")
            _ = try carry(request, server.push)
            return try carry(request, server.push)
        case 3:
            fault("push delayed")
            delayed.append(request)
            throw Self.lost
        default:
            return try carry(request, server.push)
        }
    }

    func pull(_ request: TabSyncPull) throws(TabStoreError) -> TabSyncPullResult {
        if partitioned {
            fault("partitioned")
            throw Self.lost
        }
        if random.below(12) == 0 {
            fault("pull answer lost")
            _ = try carry(request, server.pull)
            throw Self.lost
        }
        return try carry(request, server.pull)
    }
}

/// Devices edit at random while their transport fails in every way and they are killed
/// between a push and its acknowledgement; after a final sync every device shows the
/// server's sets, each mutation was applied exactly once or refused with its reason told on
/// its device, and the tab rules held on every device after every step.
@Suite struct SyncModelTests {
    final class Device {
        let path: String
        var store: TabStore
        let transport: FaultyTransport
        /// Titles this device added (each add's), in order.
        var added: [String] = []
        /// Refusals its syncs reported.
        var told: [TabSyncRefusal] = []
        var next = 0
        let number: Int

        init(number: Int, path: String, server: TabStore, seed: UInt64) throws {
            self.number = number
            self.path = path
            store = try Device.open(path)
            transport = FaultyTransport(server: server, seed: seed)
        }

        static func open(_ path: String) throws(TabStoreError) -> TabStore {
            var options = TabStore.Options()
            options.durability = .normal
            return try TabStore(path: path, options: options)
        }
    }

    /// The rules on every set of `store`: one selected tab while there are tabs, titles
    /// and ids each once. Nil when they hold, else what broke.
    static func ruleBroken(in store: TabStore) throws -> String? {
        for summary in try store.tabSets() {
            let set = try store.tabSet(named: summary.name)
            let selected = set.tabs.filter(\.isSelected).count
            if selected != (set.tabs.isEmpty ? 0 : 1) { return "\(set.name): \(selected) selected of \(set.tabs.count)" }
            if Set(set.tabs.map(\.title)).count != set.tabs.count { return "\(set.name): a title twice" }
            if Set(set.tabs.map(\.id)).count != set.tabs.count { return "\(set.name): an id twice" }
        }
        return nil
    }

    static func settled(on server: TabStore, of device: String) throws(TabStoreError) -> (last: Int, refusals: [TabSyncRefusal]) {
        try server.backend.read { records throws(TabStoreError) in try records.settledMutations(of: device, refusedFrom: 1) }
    }

    static func settledThrough(_ store: TabStore) throws(TabStoreError) -> Int {
        guard let device = store.backend.syncDevice else { throw TabStoreError(.syncNeedsAFile(database: store.location)) }
        return try device.readLog { log throws(TabStoreError) in try log.settledThrough() }
    }

    /// One step of one device: an edit (72%), a sync over its faulty transport (20%), a
    /// kill between push and acknowledgement (4%), or its link cut or healed (4%).
    /// False when the device itself refused the edit (a title it already has).
    static func act(
        _ roll: Int, on device: Device, setName: String, random: inout SplitMix64, edits: inout Int, kills: inout Int
    ) throws(TabStoreError) -> Bool {
        do {
            try step(roll, on: device, setName: setName, random: &random, edits: &edits, kills: &kills)
            return true
        } catch {
            if error.isDatabaseProblem { throw error }
            return false
        }
    }

    static func step(
        _ roll: Int, on device: Device, setName: String, random: inout SplitMix64, edits: inout Int, kills: inout Int
    ) throws(TabStoreError) {
        let store = device.store
        if roll < 72 {
            edits += 1
            let tabs = (try? store.tabSet(named: setName))?.tabs ?? []
            let pick: TabRef = tabs.isEmpty ? .index(0) : .id(tabs[random.below(tabs.count)].id)
            switch tabs.isEmpty ? 0 : random.below(7) {
            case 0, 1:
                // Now and then a title another device may take too.
                let title = random.below(8) == 0 ? "shared \(random.below(12))" : "d\(device.number)-\(device.next)"
                device.next += 1
                try store.add([title], to: setName, at: random.below(2) == 0 ? -1 : random.below(tabs.count + 1), creatingSet: true)
                device.added.append(title)
            case 2:
                try store.remove([pick], from: setName)
            case 3:
                try store.move(pick, to: random.below(tabs.count), in: setName)
            case 4:
                try store.rename(pick, to: "d\(device.number)-r\(device.next)", in: setName)
                device.next += 1
            case 5:
                try store.setPayload(["n": "\(random.below(5))"], for: pick, in: setName)
            default:
                try store.select(pick, in: setName)
            }
        } else if roll < 92 {
            if let report = try? store.sync(with: device.transport) { device.told += report.refusals }
        } else if roll < 96 {
            // Killed between a push and its acknowledgement: the server applied
            // the push, the device never heard, and starts again from its file.
            if let push = try store.pushRequest() { _ = try? device.transport.server.push(push) }
            device.store = try Device.open(device.path)
            kills += 1
        } else {
            device.transport.partitioned.toggle()
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func devicesConvergeOnTheServerThroughEveryFault(backend: StoreBackend) throws {
        let folder = TemporaryFolder()
        let server = try backend.makeDatabase(in: folder).open()
        var random = SplitMix64(seed: backend == .sqlite ? 2026 : 1203)
        let devices = try (0..<4).map { number in
            try Device(number: number, path: folder.file("device-\(number).sqlite"), server: server, seed: UInt64(100 + number))
        }
        for device in devices { try device.store.startSync(server: "test") }
        let sets = ["main", "work"]
        var edits = 0, kills = 0, refusedLocally = 0
        let steps = 4_000
        for step in 0..<steps {
            let device = devices[random.below(devices.count)]
            let setName = sets[random.below(sets.count)]
            let roll = random.below(100)
            if try !Self.act(roll, on: device, setName: setName, random: &random, edits: &edits, kills: &kills) {
                refusedLocally += 1  // the edit is refused on the device itself: no mutation
            }
            if let broken = try Self.ruleBroken(in: device.store) {
                Issue.record("step \(step), device \(device.number): \(broken)")
                return
            }
        }
        // Heal: every link back, every held push delivered, then syncs until nothing is pending.
        for device in devices {
            device.transport.partitioned = false
            device.transport.deliverDelayed()
        }
        for _ in 0..<4 {
            for device in devices { device.told += try device.store.sync(with: server).refusals }
        }
        let serverShape = try everyTab(of: server)
        #expect(serverShape.keys.sorted() == sets)
        for device in devices {
            #expect(try device.store.syncStatus().pending == 0)
            #expect(try everyTab(of: device.store) == serverShape, "device \(device.number)")
            #expect(try Self.ruleBroken(in: device.store) == nil)
        }
        // Exactly once: each device's every mutation settled on the server, its refusals the
        // server's, each told on the device once.
        let history = try sets.flatMap { try server.history(of: $0, limit: 100_000) }
        var addedOnServer: [String: Int] = [:]
        for change in history {
            if case let .added(titles, _) = change.event { for title in titles { addedOnServer[title, default: 0] += 1 } }
        }
        var addsApplied: [String: Int] = [:]
        for device in devices {
            let status = try device.store.syncStatus()
            let settled = try Self.settled(on: server, of: status.device)
            let recorded = try Self.settledThrough(device.store)
            #expect(settled.last == recorded && recorded > 0)
            #expect(settled.refusals.map(\.number) == status.refusals.map(\.number))
            #expect(status.refusals.map(\.reason) == settled.refusals.map(\.reason))
            #expect(device.told.map(\.number).sorted() == status.refusals.map(\.number))
            // Each add the device made counts once on the server, unless it was refused.
            for title in device.added { addsApplied[title, default: 0] += 1 }
            for refusal in status.refusals {
                if case let .add(_, tabs, _, _)? = refusal.mutation { for tab in tabs { addsApplied[tab.title, default: 0] -= 1 } }
            }
        }
        #expect(addedOnServer.filter { $0.value > 0 } == addsApplied.filter { $0.value > 0 })
        // Every fault happened, and refusals too.
        let faults = devices.reduce(into: [String: Int]()) { all, device in all.merge(device.transport.faults, uniquingKeysWith: +) }
        for kind in ["partitioned", "push lost", "push answer lost", "push duplicated", "push delayed", "reordered", "pull answer lost"] {
            #expect(faults[kind, default: 0] > 0, "\(kind) never happened")
        }
        #expect(kills > 20 && edits > 2_500)
        #expect(devices.contains { !$0.told.isEmpty })
    }
}
