import Foundation
import Testing
import TabStoreFoundation
import TabStoreTestSupport
@testable import TabStoreKit

/// A sync server receives messages from devices it does not control: crafted messages
/// (integers at their limits, nil, repeated and colliding ids, oversize text in every
/// field, unknown kinds and versions, NUL and control characters) are refused, alone where
/// they are one mutation, and leave the server sound for the honest devices.
@Suite struct HostileSyncTests {
    /// Texts a hostile device puts in every field: too long in characters or in bytes,
    /// control characters, NUL, bidirectional controls, and ordinary ones.
    private static let hostileTexts: [String] = [
        "", "\u{0}", "a\u{0}b", "tab\u{1B}[2J", "\u{202E}evil", " ", String(repeating: "x", count: 257),
        "a" + String(repeating: "\u{301}", count: 2_000), String(repeating: "가", count: 256), "ok", "evil",
    ]

    /// Integers a hostile device puts in every number.
    private static let hostileNumbers: [Int] = [
        Int.min, -1, 0, 1, 2, TabSyncLimits.largestNumber, TabSyncLimits.largestNumber + 1, Int.max - 1, Int.max,
    ]

    /// What a crafted mutation gets wrong: at most one thing, so that the rest of it is
    /// valid and it reaches as far into the store as that one thing lets it.
    private enum Fault: CaseIterable {
        case none, nilID, repeatedID, honestID, hostileText, tooManyTabs, unknownKind, selectedIndex
    }

    /// A crafted mutation of any kind, with one fault.
    private func craftedMutation(_ random: inout SplitMix64, honestIDs: [TabID]) -> TabMutation {
        let fault = Fault.allCases[random.below(Fault.allCases.count)]
        let field = random.below(3)
        func text(_ place: Int) -> String {
            fault == .hostileText && place == field ? Self.hostileTexts[random.below(Self.hostileTexts.count)] : "t\(random.below(1_000))"
        }
        let set = fault == .hostileText && field == 0 ? text(0) : "evil \(random.below(3))"
        let repeated = TabID()
        func id(_ place: Int) -> TabID {
            switch (fault, place == field) {
            case (.nilID, true): .unknown
            case (.repeatedID, _) where place < 2: repeated
            case (.honestID, true): honestIDs.isEmpty ? TabID() : honestIDs[random.below(honestIDs.count)]
            default: TabID()
            }
        }
        func tabs() -> [SyncedTab] {
            if fault == .tooManyTabs { return (0...TabSyncLimits.tabsPerMutation).map { SyncedTab(id: TabID(), title: "t\($0)") } }
            return (0..<(1 + random.below(3))).map { place in
                SyncedTab(id: id(place), title: "\(text(place)) \(place)", payload: random.below(3) == 0 ? [text(place): text(place)] : [:])
            }
        }
        if fault == .unknownKind { return .unreadable(kind: text(field), problem: "unknown kind") }
        switch random.below(10) {
        case 0: return .add(set: set, tabs: tabs(), before: random.below(2) == 0 ? nil : id(2), creatingSet: random.below(4) != 0)
        case 1: return .remove(set: set, ids: (0..<(1 + random.below(3))).map(id))
        case 2: return .move(set: set, id: id(0), before: random.below(2) == 0 ? nil : id(1))
        case 3: return .rename(set: set, id: id(0), title: text(1))
        case 4: return .select(set: set, id: id(0))
        case 5: return .setPayload(set: set, id: id(0), payload: [text(1): text(2)])
        case 6: return .ensureSet(set: set, tabs: tabs())
        case 7:
            let tabs = tabs()
            let index = fault == .selectedIndex ? [-1, tabs.count, Int.max][random.below(3)] : random.below(tabs.count)
            return .put(set: set, tabs: tabs, selectedIndex: index, replacing: (0..<random.below(3)).map(id))
        case 8: return .renameSet(set: set, to: random.below(2) == 0 ? "evil \(random.below(3))" : text(1))
        default: return .removeSet(set: set)
        }
    }

    /// Crafted pushes and pulls at a server of each backend, between the honest devices'
    /// syncs: after each, the server's check finds nothing, and at the end a fresh device
    /// syncs and every honest device equals the server, with every honest edit in it.
    @Test(arguments: StoreBackend.allCases)
    func craftedMessagesLeaveTheServerSoundForHonestDevices(backend: StoreBackend) throws {
        let folder = TemporaryFolder()
        let server = try backend.makeDatabase(in: folder).open()
        let phone = try TabStore(path: folder.file("phone.sqlite"))
        let laptop = try TabStore(path: folder.file("laptop.sqlite"))
        try phone.startSync(server: "test")
        try laptop.startSync(server: "test")
        // Each honest device adds tabs to its own set; the model is what they added.
        var expected: [String: [String]] = ["phone": [], "laptop": []]
        var random = SplitMix64(seed: 46)
        var outcomes: [String: Int] = [:]
        var next: [String: Int] = [:]
        for step in 0..<100 {
            for (name, device) in [("phone", phone), ("laptop", laptop)] where random.below(3) == 0 {
                let title = "\(name) \(step)"
                try device.add([title], to: name, creatingSet: true)
                expected[name, default: []].append(title)
                try device.sync(with: server)
            }
            let honestIDs = try [phone, laptop].flatMap { device in
                try device.tabSets().flatMap { try device.tabSet(named: $0.name).tabs.map(\.id) }
            }
            let hostile = "hostile \(random.below(4))"
            do throws(TabStoreError) {
                if random.below(4) == 0 {
                    let cookie = Self.hostileNumbers[random.below(Self.hostileNumbers.count)]
                    let settled = Self.hostileNumbers[random.below(Self.hostileNumbers.count)]
                    let names = (0..<random.below(3)).map { _ in Self.hostileTexts[random.below(Self.hostileTexts.count)] }
                    let version = [1, 1, 1, 0, 2, Int.max][random.below(6)]
                    _ = try server.pull(TabSyncPull(device: hostile, cookie: cookie, settled: settled, sets: names, version: version))
                } else {
                    let count = 1 + random.below(3)
                    // Mostly the number the server waits for, so that the mutations are applied.
                    let start = random.below(4) == 0 ? Self.hostileNumbers[random.below(Self.hostileNumbers.count)] : next[hostile, default: 1]
                    let mutations = (0..<count).map { offset in
                        TabSyncPush.Numbered(
                            number: start &+ (random.below(5) == 0 ? 0 : offset),
                            mutation: craftedMutation(&random, honestIDs: honestIDs)
                        )
                    }
                    let version = [1, 1, 1, 1, 2, -1][random.below(6)]
                    let answer = try server.push(TabSyncPush(device: hostile, mutations: mutations, version: version))
                    next[hostile] = answer.lastMutation + 1
                    outcomes["settled \(answer.refusals.isEmpty ? "applied" : "refused")", default: 0] += 1
                }
                outcomes["answered", default: 0] += 1
            } catch {
                // A message is refused whole only for what it says of itself; a mutation
                // that the store cannot take is settled as refused, never a database error.
                let refusals: [TabStoreError.Code] = [.invalidSyncMessage, .syncVersionNotSupported, .syncLimitExceeded, .deviceCopied]
                #expect(refusals.contains(error.code), "step \(step): \(error)")
                outcomes[error.code.rawValue, default: 0] += 1
            }
            let info = try server.info()
            #expect(info.consistencyCheck == "ok", "step \(step): \(info.consistencyCheck)")
        }
        // Every kind of refusal was met, and some crafted mutations were settled.
        #expect(outcomes["invalidSyncMessage", default: 0] > 0 && outcomes["syncVersionNotSupported", default: 0] > 0)
        #expect(outcomes["settled refused", default: 0] > 0, "\(outcomes)")
        for device in [phone, laptop] { try device.sync(with: server) }
        for device in [phone, laptop] { try device.sync(with: server) }
        let fresh = try TabStore(path: folder.file("fresh.sqlite"))
        try fresh.startSync(server: "test")
        #expect(try fresh.sync(with: server).pending == 0)
        let truth = try everyTab(of: server)
        for device in [phone, laptop, fresh] {
            #expect(try everyTab(of: device) == truth)
            #expect(try device.info().consistencyCheck == "ok")
        }
        for (name, titles) in expected where !titles.isEmpty {
            #expect(try server.tabSet(named: name).tabs.map(\.title) == titles)
        }
    }

    /// Numbers at their limits in every field of a message: refused with the field named,
    /// never a trap, on any device id.
    @Test(arguments: StoreBackend.allCases)
    func everyIntegerOfAMessageIsCheckedBeforeArithmetic(backend: StoreBackend) throws {
        let folder = TemporaryFolder()
        let server = try backend.makeDatabase(in: folder).open()
        let limit = TabSyncLimits.largestNumber
        for number in [Int.max, Int.min, limit + 1, -1] {
            #expect(thrownError { () throws(TabStoreError) in _ = try server.pull(TabSyncPull(device: "d", cookie: 0, settled: number, sets: [])) }
                == TabStoreError(.invalidSyncMessage(reason: "settled \(number) is outside 0...\(limit)")))
            #expect(thrownError { () throws(TabStoreError) in _ = try server.pull(TabSyncPull(device: "d", cookie: number, settled: 0, sets: [])) }
                == TabStoreError(.invalidSyncMessage(reason: "cookie \(number) is outside 0...\(limit)")))
        }
        for number in [Int.max, Int.min, limit + 1, -1, 0] {
            let push = TabSyncPush(device: "d", mutations: [.init(number: number, mutation: .removeSet(set: "x"))])
            #expect(thrownError { () throws(TabStoreError) in _ = try server.push(push) }
                == TabStoreError(.invalidSyncMessage(reason: "mutation number \(number) is outside 1...\(limit)")))
        }
        let twice = TabSyncPush(device: "d", mutations: [.init(number: 1, mutation: .removeSet(set: "x")), .init(number: 1, mutation: .removeSet(set: "y"))])
        #expect(thrownError { () throws(TabStoreError) in _ = try server.push(twice) } == TabStoreError(.invalidSyncMessage(reason: "mutation number 1 appears twice")))
        // The largest number a server takes settles nothing out of order, and a pull of it answers.
        let far = TabSyncPush(device: "d", mutations: [.init(number: limit, mutation: .removeSet(set: "x"))])
        #expect(try server.push(far) == TabSyncPushResult(lastMutation: 0, refusals: []))
        #expect(try server.pull(TabSyncPull(device: "d", cookie: limit, settled: limit, sets: [])).lastMutation == 0)
        #expect(try server.info().consistencyCheck == "ok")
    }

    /// A mutation no store can hold is settled as refused with its reason, and the device's
    /// next mutation is applied: nothing blocks a device's later edits.
    @Test(arguments: StoreBackend.allCases)
    func aMutationNoStoreCanHoldIsRefusedAloneAndTheNextApplies(backend: StoreBackend) throws {
        let folder = TemporaryFolder()
        let server = try backend.makeDatabase(in: folder).open()
        let one = TabID(), other = TabID()
        let bad: [(TabMutation, TabStoreError)] = [
            (.add(set: "s", tabs: [SyncedTab(id: .unknown, title: "A")], before: nil, creatingSet: true), TabStoreError(.invalidMutation(reason: "a tab id is the nil UUID"))),
            (.add(set: "s", tabs: [SyncedTab(id: one, title: "A"), SyncedTab(id: one, title: "B")], before: nil, creatingSet: true),
             TabStoreError(.invalidMutation(reason: "tab id \(one) appears twice"))),
            (.removeSet(set: "a\u{0}b"), TabStoreError(.invalidSetName(name: "a\u{0}b", problem: .controlCharacter(scalar: 0)))),
            (.rename(set: "s", id: one, title: "a" + String(repeating: "\u{301}", count: 2_000)),
             TabStoreError(.invalidTitle(title: "a" + String(repeating: "\u{301}", count: 2_000), problem: .tooManyBytes(bytes: 4_001)))),
            (.unreadable(kind: "pin", problem: "unknown kind"), TabStoreError(.invalidMutation(reason: "\"pin\": unknown kind"))),
            (.put(set: "s", tabs: [SyncedTab(id: one, title: "A")], selectedIndex: 1, replacing: []), TabStoreError(.invalidMutation(reason: "selected index 1 for 1 tabs"))),
            (.add(set: "s", tabs: (0...TabSyncLimits.tabsPerMutation).map { SyncedTab(id: TabID(), title: "t\($0)") }, before: nil, creatingSet: true),
             TabStoreError(.syncLimitExceeded(limit: "tabs in a mutation", maximum: TabSyncLimits.tabsPerMutation, found: TabSyncLimits.tabsPerMutation + 1))),
        ]
        var mutations = bad.enumerated().map { TabSyncPush.Numbered(number: $0.offset + 1, mutation: $0.element.0) }
        mutations.append(.init(number: bad.count + 1, mutation: .add(set: "s", tabs: [SyncedTab(id: other, title: "Fine")], before: nil, creatingSet: true)))
        let answer = try server.push(TabSyncPush(device: "d", mutations: mutations))
        #expect(answer.lastMutation == bad.count + 1)
        #expect(answer.refusals == bad.enumerated().map { TabSyncRefusal(number: $0.offset + 1, code: $0.element.1.code, reason: $0.element.1.description) })
        #expect(try server.tabSet(named: "s").tabs.map(\.title) == ["Fine"])
        // Sent again (its answer lost), the push applies nothing twice and says the same.
        #expect(try server.push(TabSyncPush(device: "d", mutations: mutations)) == answer)
        #expect(try server.info().consistencyCheck == "ok")
    }

    /// A whole-set edit (an import, a replace) made on a device that never saw a tab another
    /// device added is refused there, said to the device, and the tab stays everywhere.
    @Test(arguments: StoreBackend.allCases)
    func aReplaceThatWouldEraseUnseenTabsIsRefusedAndSaid(backend: StoreBackend) throws {
        let folder = TemporaryFolder()
        let server = try backend.makeDatabase(in: folder).open()
        let phone = try TabStore(path: folder.file("phone.sqlite"))
        let laptop = try TabStore(path: folder.file("laptop.sqlite"))
        for device in [phone, laptop] { try device.startSync(server: "test") }
        try phone.add(["Home", "Map"], to: "main", creatingSet: true)
        try phone.sync(with: server)
        try laptop.sync(with: server)
        // The laptop adds a tab; the phone, offline, replaces the set by an import.
        try laptop.add(["Photos"], to: "main")
        try laptop.sync(with: server)
        _ = try phone.importDocument(TabStoreDocument(sets: [.init(name: "main", selectedIndex: 0, tabs: ["Start"])]), replace: true)
        let report = try phone.sync(with: server)
        #expect(report.refusals.map(\.code) == [.replacesUnseenTabs])
        #expect(report.refusals.first?.reason == TabStoreError(.replacesUnseenTabs(set: "main", count: 1)).description)
        for store in [server, phone] { #expect(try store.tabSet(named: "main").tabs.map(\.title) == ["Home", "Map", "Photos"]) }
        // Once it has seen the tab, the same import goes through.
        _ = try phone.importDocument(TabStoreDocument(sets: [.init(name: "main", selectedIndex: 0, tabs: ["Start"])]), replace: true)
        #expect(try phone.sync(with: server).refusals == [])
        try laptop.sync(with: server)
        for store in [server, phone, laptop] { #expect(try store.tabSet(named: "main").tabs.map(\.title) == ["Start"]) }
    }

    /// Two syncs of one device at once: each counts what its own answers settled, so the
    /// edits are counted once between them.
    @Test func twoSyncsOfOneDeviceCountEachEditOnce() throws {
        let folder = TemporaryFolder()
        let server = try TabStore(path: folder.file("server.sqlite"))
        let phone = try TabStore(path: folder.file("phone.sqlite"))
        try phone.startSync(server: "test")
        for index in 0..<7 { try phone.add(["t\(index)"], to: "main", creatingSet: true) }
        let other = try TabStore(path: folder.file("phone.sqlite"))
        /// A transport during whose first push the same device syncs from another handle.
        final class Overtaken: TabSyncServer {
            let server: TabStore, other: TabStore
            var otherReport: TabSyncReport?
            init(server: TabStore, other: TabStore) { (self.server, self.other) = (server, other) }
            func push(_ request: TabSyncPush) throws(TabStoreError) -> TabSyncPushResult {
                if otherReport == nil { otherReport = try other.sync(with: server) }
                return try server.push(request)
            }
            func pull(_ request: TabSyncPull) throws(TabStoreError) -> TabSyncPullResult { try server.pull(request) }
        }
        let transport = Overtaken(server: server, other: other)
        let report = try phone.sync(with: transport)
        #expect(transport.otherReport?.pushed == 7)
        #expect(report.pushed == 0)
    }

    /// Numbers a server answers with that a device cannot use are refused, said in one
    /// line, and nothing of the answer is stored; a cookie past the server's journal makes
    /// the server answer with every set.
    @Test func aDeviceStoresNoServerValueItCannotUse() throws {
        let folder = TemporaryFolder()
        let server = try TabStore(path: folder.file("server.sqlite"))
        let phone = try TabStore(path: folder.file("phone.sqlite"))
        try phone.startSync(server: "test")
        try phone.add(["Home"], to: "main", creatingSet: true)
        try phone.sync(with: server)
        let before = try phone.syncStatus()
        for cookie in [-1, Int.max, TabSyncLimits.largestNumber + 1] {
            let answer = TabSyncPullResult(cookie: cookie, complete: false, sets: [], removed: [], lastMutation: 1, refusals: [])
            #expect(thrownError { () throws(TabStoreError) in _ = try phone.apply(answer) }
                == TabStoreError(.invalidSyncMessage(reason: "cookie \(cookie) is outside 0...\(TabSyncLimits.largestNumber)")))
        }
        let negative = TabSyncPushResult(lastMutation: -5, refusals: [])
        #expect(thrownError { () throws(TabStoreError) in _ = try phone.acknowledge(negative) }
            == TabStoreError(.invalidSyncMessage(reason: "lastMutation -5 is outside 0...\(TabSyncLimits.largestNumber)")))
        #expect(try phone.syncStatus() == before)
        // A device whose cookie is past the server's newest change gets every set.
        let ahead = try server.pull(TabSyncPull(device: before.device, cookie: TabSyncLimits.largestNumber, settled: 1, sets: []))
        #expect(ahead.complete && ahead.sets.map(\.name) == ["main"])
    }

    /// A device's file, closed, with one edit pending: for another program to write to.
    private func deviceWithOneEdit(in folder: TemporaryFolder) throws -> String {
        let path = folder.file("phone.sqlite")
        let phone = try TabStore(path: path)
        try phone.startSync(server: "test")
        try phone.add(["Home"], to: "main", creatingSet: true)
        return path
    }

    /// A device's file whose numbers another program set past any a device gives fails its
    /// sync as a damaged log, never a trap.
    @Test func aDeviceFileWithExtremeNumbersFailsAsDamaged() throws {
        let folder = TemporaryFolder()
        let server = try TabStore(path: folder.file("server.sqlite"))
        let path = try deviceWithOneEdit(in: folder)
        _ = try SQLiteShell.run(path, "UPDATE sync_device SET last_mutation = 9223372036854775807")
        let phone = try TabStore(path: path)
        #expect(thrownError { () throws(TabStoreError) in _ = try phone.sync(with: server) } == TabStoreError(.damagedSyncLog(path: path, mutation: 0)))
        #expect(try phone.info().ruleProblems == ["the sync log's device row (its numbers or its id) is not as tabstore writes it"])
        #expect(try server.tabSets().isEmpty)
    }

    /// A pending mutation another program wrote that names a set no set can have (a NUL in
    /// it) is pushed and refused, and the device still pulls: it does not ask for that set.
    @Test func aLoggedMutationNamingNoPossibleSetDoesNotStopThePull() throws {
        let folder = TemporaryFolder()
        let server = try TabStore(path: folder.file("server.sqlite"))
        let path = try deviceWithOneEdit(in: folder)
        // "3:put4:m\0dn1:01:0": a put of no tabs to the set "m\0dn".
        _ = try SQLiteShell.run(path, "UPDATE sync_mutation SET body = CAST(X'333A707574343A6D00646E313A30313A30' AS TEXT)")
        let phone = try TabStore(path: path)
        let report = try phone.sync(with: server)
        #expect(report.pushed == 1 && report.pending == 0)
        #expect(report.refusals.map(\.code) == [.invalidSetName])
        #expect(try everyTab(of: phone) == everyTab(of: server))
    }

    /// The decoding entry point: bytes past the limit are refused before they are all read
    /// (a lazy body of 100 MB is read no further than the limit), an unknown version is
    /// refused with the versions the server reads, an unknown kind is one mutation.
    @Test func aMessageIsBoundedBeforeItIsDecoded() throws {
        /// 100 MB of a push's JSON as a request body arrives, counting what was read.
        final class Body: Sequence {
            var read = 0
            struct Bytes: IteratorProtocol {
                let body: Body
                let prefix = Array(#"{"version":1,"device":"d","mutations":[{"number":1,"mutation":{"removeSet":{"set":""#.utf8)
                var place = 0
                mutating func next() -> UInt8? {
                    guard place < 100_000_000 else { return nil }
                    defer { place += 1 }
                    body.read += 1
                    return place < prefix.count ? prefix[place] : UInt8(ascii: "x")
                }
            }
            func makeIterator() -> Bytes { Bytes(body: self) }
        }
        let body = Body()
        let limit = TabSyncLimits.messageBytes
        #expect(thrownError { () throws(TabStoreError) in _ = try TabSyncPush(json: body) }
            == TabStoreError(.syncLimitExceeded(limit: "bytes in a message", maximum: limit, found: nil)))
        #expect(body.read == limit + 1)
        let sized = Data(count: 100_000_000)
        #expect(thrownError { () throws(TabStoreError) in _ = try TabSyncPush(json: sized) }
            == TabStoreError(.syncLimitExceeded(limit: "bytes in a message", maximum: limit, found: 100_000_000)))
        let newer = Data(#"{"version":2,"device":"d","changes":[]}"#.utf8)
        #expect(thrownError { () throws(TabStoreError) in _ = try TabSyncPush(json: newer) } == TabStoreError(.syncVersionNotSupported(version: 2, readable: [1])))
        let unknownKind = Data(#"{"version":1,"device":"d","mutations":[{"number":1,"mutation":{"pin":{"set":"main"}}}]}"#.utf8)
        #expect(try TabSyncPush(json: unknownKind).mutations.map(\.mutation) == [.unreadable(kind: "pin", problem: "unknown kind")])
        let noID = Data(#"{"version":1,"device":"d","mutations":[{"number":1,"mutation":{"select":{"set":"main"}}}]}"#.utf8)
        #expect(try TabSyncPush(json: noID).mutations.map(\.mutation)
            == [.unreadable(kind: "select", problem: "mutations[0].mutation.select.id is missing")])
        let junk = Data((#"{"version":1,"device":"d","mutations":[],"x":["# + String(repeating: "0,", count: 20_000) + "0]}").utf8)
        #expect(thrownError { () throws(TabStoreError) in _ = try TabSyncPush(json: junk) }
            == TabStoreError(.syncLimitExceeded(limit: "elements in one list", maximum: TabSyncLimits.tabsPerMutation, found: nil)))
        let huge = Data(#"{"version":1,"device":"d","cookie":99999999999999999999,"settled":0,"sets":[]}"#.utf8)
        let unreadable = "not JSON, or a number that does not fit where it stands"
        #expect(thrownError { () throws(TabStoreError) in _ = try TabSyncPull(json: huge) } == TabStoreError(.invalidSyncMessage(reason: unreadable)))
        #expect(thrownError { () throws(TabStoreError) in _ = try TabSyncPull(json: Data("{".utf8)) } == TabStoreError(.invalidSyncMessage(reason: unreadable)))
        let missing = Data(#"{"version":1,"cookie":0,"settled":0,"sets":[]}"#.utf8)
        #expect(thrownError { () throws(TabStoreError) in _ = try TabSyncPull(json: missing) } == TabStoreError(.invalidSyncMessage(reason: "device is missing")))
    }

    /// A name or title is bounded in bytes as well as characters: a few characters carrying
    /// thousands of combining marks are refused by every edit, not stored.
    @Test func aTitleIsBoundedInBytes() throws {
        let store = try TabStore(path: ":memory:")
        let heavy = "a" + String(repeating: "\u{301}", count: 50_000)
        #expect(thrownError { () throws(TabStoreError) in try store.add([heavy], to: "main", creatingSet: true) }
            == TabStoreError(.invalidTitle(title: heavy, problem: .tooManyBytes(bytes: 100_001))))
        #expect(thrownError { () throws(TabStoreError) in try store.add(["ok"], to: heavy, creatingSet: true) }
            == TabStoreError(.invalidSetName(name: heavy, problem: .tooManyBytes(bytes: 100_001))))
        #expect(try store.tabSets().isEmpty)
    }
}
