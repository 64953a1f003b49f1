import Foundation
import Testing
import TabStoreTestSupport
@testable import TabStoreKit
@testable import TabStorePostgres

/// Sync between device files and a server store (a file, or a PostgreSQL database).
@Suite struct SyncTests {
    @Test(arguments: StoreBackend.allCases)
    func twoDevicesEditOfflineAndAgreeAfterSyncing(backend: StoreBackend) throws {
        let folder = TemporaryFolder()
        let server = try backend.makeDatabase(in: folder).open()
        let phone = try TabStore(path: folder.file("phone.sqlite"))
        let laptop = try TabStore(path: folder.file("laptop.sqlite"))
        try phone.startSync(server: "test")
        try laptop.startSync(server: "test")
        try phone.add([NewTab("Home"), NewTab("Map", payload: ["icon": "map"]), NewTab("Reviews")], to: "main", creatingSet: true)
        let first = try phone.sync(with: server)
        #expect(first.pushed == 1 && first.pending == 0 && first.refusals == [] && first.roundTrips == 2)
        #expect(try laptop.sync(with: server).setsPulled == 1)
        #expect(try everyTab(of: laptop) == everyTab(of: server))
        #expect(picture(try laptop.tabSet(named: "main")) == ["*Home", "Map", "Reviews"])
        // Offline, each edits the same set its own way.
        try phone.move("Reviews", to: 0, in: "main")
        try phone.select("Map", in: "main")
        try laptop.rename("Home", to: "Start", in: "main")
        try laptop.add(["Photos"], to: "main", at: 1)
        try phone.sync(with: server)
        try laptop.sync(with: server)
        try phone.sync(with: server)
        let expected = ["Reviews", "Start", "Photos", "*Map"]
        for store in [server, phone, laptop] { #expect(picture(try store.tabSet(named: "main")) == expected) }
        #expect(try everyTab(of: phone) == everyTab(of: server))
        #expect(try everyTab(of: laptop) == everyTab(of: server))
        #expect(try phone.syncStatus().pending == 0 && laptop.syncStatus().pending == 0)
    }

    /// A server, and a phone that has synced its set "main" (Home) with it: mutation 1 settled.
    private func phoneThatSynced(_ backend: StoreBackend) throws -> (folder: TemporaryFolder, server: TabStore, phone: TabStore) {
        let folder = TemporaryFolder()
        let server = try backend.makeDatabase(in: folder).open()
        let phone = try TabStore(path: folder.file("phone.sqlite"))
        try phone.startSync(server: "test")
        try phone.add(["Home"], to: "main", creatingSet: true)
        try phone.sync(with: server)
        return (folder, server, phone)
    }

    /// A copy of a device's file syncs as the same device, its mutations numbered as the
    /// original's: the server tells the copy's from the original's of the same number, and
    /// the copy's edit stays pending instead of being taken as settled.
    @Test(arguments: StoreBackend.allCases)
    func aCopyOfADevicesFileIsFoundOutAndItsEditKept(backend: StoreBackend) throws {
        let (folder, server, phone) = try phoneThatSynced(backend)
        try phone.backup(to: folder.file("tablet.sqlite"))
        let tablet = try TabStore(path: folder.file("tablet.sqlite"))
        try phone.add(["From phone"], to: "main")
        try tablet.add(["From tablet"], to: "main")
        try phone.sync(with: server)
        let device = try phone.syncStatus().device
        #expect(thrownError { () throws(TabStoreError) in _ = try tablet.sync(with: server) } == TabStoreError(.deviceCopied(device: device, number: 2)))
        #expect(picture(try server.tabSet(named: "main")) == ["*Home", "From phone"])
        #expect(try tablet.syncStatus().pending == 1)
        #expect(picture(try tablet.tabSet(named: "main")) == ["*Home", "From tablet"])
        // The original goes on syncing.
        try phone.add(["Again"], to: "main")
        #expect(try phone.sync(with: server).pushed == 1)
        #expect(picture(try server.tabSet(named: "main")) == ["*Home", "From phone", "Again"])
    }

    /// A device's file put back from an older copy: the server settled mutations of it that
    /// this file never made, so its new edit under one of those numbers stays pending.
    @Test(arguments: StoreBackend.allCases)
    func aDevicesFilePutBackFromAnOlderCopyIsFoundOutAndItsEditKept(backend: StoreBackend) throws {
        let (folder, server, phone) = try phoneThatSynced(backend)
        try phone.backup(to: folder.file("yesterday.sqlite"))
        try phone.add(["A"], to: "main")
        try phone.add(["B"], to: "main")
        try phone.sync(with: server)
        let device = try phone.syncStatus().device
        let putBack = try TabStore(path: folder.file("yesterday.sqlite"))
        try putBack.add(["C"], to: "main")
        #expect(thrownError { () throws(TabStoreError) in _ = try putBack.sync(with: server) } == TabStoreError(.deviceCopied(device: device, number: 3)))
        #expect(picture(try server.tabSet(named: "main")) == ["*Home", "A", "B"])
        #expect(try putBack.syncStatus().pending == 1)
    }

    /// A device's sets from before its first sync go to the server where it has none of
    /// their names; where it has one with other tabs, the server's is kept, and the device
    /// hears its own was refused. The same tabs made on two devices (an app's launch) are
    /// one set, refused nowhere.
    @Test(arguments: StoreBackend.allCases)
    func aDevicesSetFromBeforeItsFirstSyncThatTheServerHasIsRefusedNotDroppedUnseen(backend: StoreBackend) throws {
        let folder = TemporaryFolder()
        let server = try backend.makeDatabase(in: folder).open()
        try server.add(["Home"], to: "main", creatingSet: true)
        try server.ensureSet("start", defaultTabs: [NewTab("Home"), NewTab("Reviews")])
        let phone = try TabStore(path: folder.file("phone.sqlite"))
        try phone.add(["Mine 1", "Mine 2"], to: "main", creatingSet: true)
        try phone.add(["O1"], to: "own", creatingSet: true)
        try phone.ensureSet("start", defaultTabs: [NewTab("Home"), NewTab("Reviews")])
        try phone.startSync(server: "test")
        let report = try phone.sync(with: server)
        #expect(report.refusals.map(\.code) == [.setAlreadyExists])
        #expect(report.refusals.map(\.reason) == [TabStoreError(.setAlreadyExists(set: "main")).description])
        #expect(report.refusals.first?.mutation?.setNames == ["main"])
        #expect(picture(try phone.tabSet(named: "main")) == ["*Home"])
        #expect(picture(try server.tabSet(named: "own")) == ["*O1"])
        #expect(picture(try phone.tabSet(named: "start")) == ["*Home", "Reviews"])
        #expect(try everyTab(of: phone) == everyTab(of: server))
    }

    /// A server replaced by a new one, or put back from an older copy, has lost edits it
    /// settled: the device finds it out from the answer, and keeps its new edit pending
    /// (the server would wait forever for the edits it lost before taking it).
    @Test(arguments: StoreBackend.allCases)
    func aServerThatLostSettledEditsIsFoundOutAndTheNewEditKept(backend: StoreBackend) throws {
        let (_, server, phone) = try phoneThatSynced(backend)
        let device = try phone.syncStatus().device
        let elsewhere = TemporaryFolder()
        let replaced = try backend.makeDatabase(in: elsewhere).open()
        try phone.add(["Map"], to: "main")
        #expect(thrownError { () throws(TabStoreError) in _ = try phone.sync(with: replaced) }
            == TabStoreError(.serverBehind(server: "test", device: device, serverSettled: 0, settled: 1)))
        #expect(try replaced.tabSets().isEmpty)
        #expect(try phone.syncStatus().pending == 1)
        #expect(picture(try phone.tabSet(named: "main")) == ["*Home", "Map"])
        // The server it had goes on.
        #expect(try phone.sync(with: server).pushed == 1)
        #expect(picture(try server.tabSet(named: "main")) == ["*Home", "Map"])
    }

    @Test func aServerFilePutBackFromAnOlderCopyIsFoundOut() throws {
        let (folder, server, phone) = try phoneThatSynced(.sqlite)
        try server.backup(to: folder.file("yesterday.sqlite"))
        try phone.add(["Map"], to: "main")
        try phone.sync(with: server)
        let putBack = try TabStore(path: folder.file("yesterday.sqlite"))
        try phone.add(["News"], to: "main")
        let refused = thrownError { () throws(TabStoreError) in _ = try phone.sync(with: putBack) }
        #expect(refused == TabStoreError(.serverBehind(server: "test", device: try phone.syncStatus().device, serverSettled: 1, settled: 2)))
        #expect(refused?.description == "server \"test\" knows the edits of device \"\(try phone.syncStatus().device)\" through mutation 1, though it settled them through 2 (it was replaced, or put back from an older copy): the device's edits from there on would never be applied, so they stay pending")
        #expect(picture(try putBack.tabSet(named: "main")) == ["*Home"])
        #expect(try phone.syncStatus().pending == 1)
    }

    /// Servers and device files put back from copies at random moments: a sync that
    /// succeeds has settled every edit of the one device (none pending, both files alike);
    /// one that cannot says which copy it found (`.serverBehind`, `.deviceCopied`).
    @Test func aSyncSucceedsOnlyWhenTheDeviceAndTheServerAgreeWhateverWasPutBack() throws {
        var outcomes: Set<String> = []
        for seed in 0..<30 {
            var random = SplitMix64(seed: UInt64(seed))
            let folder = TemporaryFolder()
            var server = try TabStore(path: folder.file("server.sqlite"))
            var phone = try TabStore(path: folder.file("phone.sqlite"))
            try phone.startSync(server: "test")
            try phone.add(["Home"], to: "main", creatingSet: true)
            var serverCopies: [String] = [], phoneCopies: [String] = []
            for step in 0..<14 {
                let copy = folder.file("copy \(step).sqlite")
                switch random.below(6) {
                case 0, 1: try phone.add(["t\(step)"], to: "main")
                case 2:
                    switch Result(catching: { () throws(TabStoreError) in try phone.sync(with: server) }) {
                    case let .success(report):
                        #expect(report.pending == 0, "seed \(seed) step \(step)")
                        #expect(try everyTab(of: phone) == everyTab(of: server), "seed \(seed) step \(step)")
                        outcomes.insert("synced")
                    case let .failure(error):
                        #expect(error.code == .serverBehind || error.code == .deviceCopied, "seed \(seed) step \(step): \(error)")
                        outcomes.insert(error.code.rawValue)
                    }
                case 3:
                    try server.backup(to: copy)
                    serverCopies.append(copy)
                case 4:
                    try phone.backup(to: copy)
                    phoneCopies.append(copy)
                default:
                    // Put back: a copy of a copy, so each copy can be put back again.
                    let putBack = folder.file("put back \(step).sqlite")
                    if random.below(2) == 0, !serverCopies.isEmpty {
                        try TabStore(path: serverCopies[random.below(serverCopies.count)]).backup(to: putBack)
                        server = try TabStore(path: putBack)
                    } else if !phoneCopies.isEmpty {
                        try TabStore(path: phoneCopies[random.below(phoneCopies.count)]).backup(to: putBack)
                        phone = try TabStore(path: putBack)
                    }
                }
            }
        }
        // Each outcome was met: the property was tried on each.
        #expect(outcomes == ["synced", "serverBehind", "deviceCopied"])
    }

    /// A file is a device or a server, never both: a device's file refuses to serve a push
    /// or a pull, and a file that has served devices refuses to start syncing with a
    /// server; each refusal changes nothing.
    @Test func aFileIsADeviceOrAServerNeverBoth() throws {
        let folder = TemporaryFolder()
        let server = try TabStore(path: folder.file("server.sqlite"))
        let phone = try TabStore(path: folder.file("phone.sqlite"))
        try phone.startSync(server: "test")
        try phone.add(["Home"], to: "main", creatingSet: true)
        try phone.sync(with: server)
        let laptop = try TabStore(path: folder.file("laptop.sqlite"))
        try laptop.startSync(server: "the phone")
        try laptop.add(["Map"], to: "main", creatingSet: true)
        #expect(thrownError { () throws(TabStoreError) in _ = try laptop.sync(with: phone) } == TabStoreError(.deviceAndServer(path: phone.location)))
        #expect(thrownError { () throws(TabStoreError) in _ = try phone.pull(TabSyncPull(device: "x", cookie: 0, settled: 0, sets: [])) }
            == TabStoreError(.deviceAndServer(path: phone.location)))
        #expect(thrownError { () throws(TabStoreError) in try server.checkCanSync(with: "elsewhere") } == TabStoreError(.deviceAndServer(path: server.location)))
        #expect(thrownError { () throws(TabStoreError) in _ = try server.startSync(server: "elsewhere") } == TabStoreError(.deviceAndServer(path: server.location)))
        #expect(thrownError { () throws(TabStoreError) in _ = try server.syncStatus() }?.code == .syncNotStarted)
        #expect(picture(try phone.tabSet(named: "main")) == ["*Home"])
        #expect(try laptop.syncStatus().pending == 1)
    }

    /// Two devices take one title while apart: the second is refused on the server, the
    /// device hears why (in the sync's report and its status), and its set is the server's.
    @Test(arguments: StoreBackend.allCases)
    func anEditThatNoLongerAppliesIsRefusedWithItsReasonOnItsDevice(backend: StoreBackend) throws {
        let folder = TemporaryFolder()
        let server = try backend.makeDatabase(in: folder).open()
        try server.add(["Home"], to: "main", creatingSet: true)
        let phone = try TabStore(path: folder.file("phone.sqlite"))
        let laptop = try TabStore(path: folder.file("laptop.sqlite"))
        for device in [phone, laptop] {
            try device.startSync(server: "test")
            try device.sync(with: server)
        }
        try phone.add(["Map"], to: "main")
        try laptop.add(["Map"], to: "main")
        try phone.sync(with: server)
        let report = try laptop.sync(with: server)
        #expect(report.refusals.map(\.code) == [.duplicateTitle])
        #expect(report.refusals.first?.reason == #"set "main" already has a tab titled "Map""#)
        let laptopMap = try #require(report.refusals.first?.mutation)
        guard case let .add("main", tabs, nil, false) = laptopMap else { Issue.record("refused \(laptopMap)"); return }
        #expect(tabs.map(\.title) == ["Map"])
        #expect(try laptop.syncStatus().refusals == report.refusals)
        // The laptop shows the server's Map, the phone's, not its own.
        let serverMap = try server.tabSet(named: "main").tabs[1]
        #expect(try laptop.tabSet(named: "main").tabs[1] == serverMap)
        #expect(serverMap.id != tabs[0].id)
        // Told once: the next sync brings no refusal again.
        #expect(try laptop.sync(with: server).refusals == [])
    }

    /// A push sent twice, or an old push after a newer one, applies nothing twice; a push
    /// after a gap waits for it.
    @Test(arguments: StoreBackend.allCases)
    func aPushSentAgainOrOutOfOrderAppliesEachMutationOnce(backend: StoreBackend) throws {
        let folder = TemporaryFolder()
        let server = try backend.makeDatabase(in: folder).open()
        let phone = try TabStore(path: folder.file("phone.sqlite"))
        try phone.startSync(server: "test")
        try phone.add(["Home"], to: "main", creatingSet: true)
        let early = try #require(try phone.pushRequest())
        try phone.add(["Map"], to: "main")
        try phone.add(["Reviews"], to: "main")
        let all = try #require(try phone.pushRequest())
        #expect(all.mutations.map(\.number) == [1, 2, 3])
        let late = TabSyncPush(device: all.device, mutations: Array(all.mutations.suffix(1)))
        // Mutation 3 before 1 and 2: it waits.
        #expect(try server.push(late).lastMutation == 0)
        #expect(try server.push(all).lastMutation == 3)
        #expect(try server.push(all).lastMutation == 3)
        #expect(try server.push(early).lastMutation == 3)
        #expect(picture(try server.tabSet(named: "main")) == ["*Home", "Map", "Reviews"])
        #expect(try server.history(of: "main", limit: 10).count == 3)
        try phone.acknowledge(try server.push(all))
        #expect(try phone.syncStatus().pending == 0)
    }

    /// A device whose cookie the server's journal no longer reaches (trimmed past it)
    /// gets every set: a set removed meanwhile goes, one made meanwhile comes, and its
    /// pending edit is planned again on top.
    @Test func aDeviceBehindATrimmedJournalGetsEverySet() throws {
        let folder = TemporaryFolder()
        let server = try TabStore(path: folder.file("server.sqlite"))
        try server.add(["Home"], to: "main", creatingSet: true)
        try server.add(["Inbox"], to: "old", creatingSet: true)
        let phone = try TabStore(path: folder.file("phone.sqlite"))
        try phone.startSync(server: "test")
        try phone.sync(with: server)
        #expect(try phone.tabSets().map(\.name) == ["main", "old"])
        try server.removeSet("old")
        try server.add(["Notes"], to: "new", creatingSet: true)
        try phone.add(["Map"], to: "main")
        // The trim deletes the oldest rows; here every row before the newest goes.
        let last = try server.backend.read { records throws(TabStoreError) in try records.lastChangeID() }
        let trimmed = try #require(try Self.deleteJournal(through: last - 1, of: folder.file("server.sqlite")))
        #expect(trimmed > 0)
        let pull = try server.pull(try phone.pullRequest())
        #expect(pull.complete && Set(pull.sets.map(\.name)) == ["main", "new"])
        let report = try phone.sync(with: server)
        let names = try phone.tabSets().map(\.name)
        #expect(names == ["main", "new"], "\(report)")
        #expect(picture(try phone.tabSet(named: "main")) == ["*Home", "Map"])
        #expect(picture(try server.tabSet(named: "main")) == ["*Home", "Map"])
    }

    /// A server set whose rows break the rules (written around tabstore) is not sent to a
    /// device: its pull fails with `.damagedSet`, and the device is left as it was.
    @Test func aDamagedServerSetIsRefusedNotSent() throws {
        let folder = TemporaryFolder()
        let server = try TabStore(path: folder.file("server.sqlite"))
        try server.add(["Home", "Map"], to: "main", creatingSet: true)
        #expect(try Self.sqlite(folder.file("server.sqlite"), "UPDATE tab SET position = position + 5 WHERE title = 'Map'; SELECT changes();") == 1)
        let phone = try TabStore(path: folder.file("phone.sqlite"))
        try phone.startSync(server: "test")
        let refused = thrownError { () throws(TabStoreError) in try phone.sync(with: server) }
        #expect(refused?.code == .damagedSet)
        #expect(try phone.tabSets().isEmpty)
    }

    /// A pending mutation edited around tabstore can neither be sent nor planned again on
    /// the server's sets: the sync fails naming it, and neither file changes.
    @Test func aDamagedPendingMutationStopsTheSyncNamingIt() throws {
        let (folder, server, phone) = try phoneThatSynced(.sqlite)
        try phone.add(["Map"], to: "main")
        try phone.add(["News"], to: "main")
        let path = folder.file("phone.sqlite")
        let second = try #require(try Self.sqlite(path, "SELECT max(id) FROM sync_mutation;"))
        #expect(try Self.sqlite(path, "UPDATE sync_mutation SET body = '{\"op\":1}' WHERE id = \(second); SELECT changes();") == 1)
        let refused = thrownError { () throws(TabStoreError) in _ = try phone.sync(with: server) }
        #expect(refused == TabStoreError(.damagedSyncLog(path: phone.location, mutation: second)))
        #expect(refused?.description == "database \(phone.location) is damaged: mutation \(second) of its sync log is not as tabstore writes it")
        #expect(try phone.info().ruleProblems == ["the sync log's mutation \(second) is not as tabstore writes it"])
        #expect(picture(try server.tabSet(named: "main")) == ["*Home"])
        #expect(picture(try phone.tabSet(named: "main")) == ["*Home", "Map", "News"])
        #expect(try phone.syncStatus().pending == 2)
    }

    /// Whatever a pending mutation's stored bytes were changed to, a sync either reads it
    /// (the server applies or refuses it, and both files agree after) or fails with
    /// `.damagedSyncLog` naming it, leaving the server and the device as they were.
    @Test func aPendingMutationChangedInAnyWayIsSyncedOrNamedAsDamaged() throws {
        var random = SplitMix64(seed: 11)
        var named = 0, synced = 0
        for round in 0..<60 {
            let (folder, server, phone) = try phoneThatSynced(.sqlite)
            switch round % 4 {
            case 0: try phone.add(["Map"], to: "main")
            case 1: try phone.rename(.title("Home"), to: "Start", in: "main")
            case 2: try phone.setPayload(["route": "/home"], for: .title("Home"), in: "main")
            default: try phone.add([NewTab("News", payload: ["k": "v"]), NewTab("Mail")], to: "main")
            }
            let path = folder.file("phone.sqlite")
            let hex = try SQLiteShell.run(path, "SELECT hex(body) FROM sync_mutation;").trimmingCharacters(in: .whitespacesAndNewlines)
            var bytes = stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
            let at = random.below(bytes.count)
            switch random.below(3) {
            case 0: bytes.removeSubrange(at...)
            case 1: bytes[at] = UInt8(random.below(256))
            default: bytes.insert(UInt8(random.below(256)), at: at)
            }
            let damaged = bytes.map { String(format: "%02X", $0) }.joined()
            #expect(try Self.sqlite(path, "UPDATE sync_mutation SET body = CAST(X'\(damaged)' AS TEXT); SELECT changes();") == 1)
            let serverBefore = picture(try server.tabSet(named: "main"))
            let phoneBefore = picture(try phone.tabSet(named: "main"))
            if let error = thrownError({ () throws(TabStoreError) in _ = try phone.sync(with: server) }) {
                #expect(error == TabStoreError(.damagedSyncLog(path: phone.location, mutation: 2)), "\(damaged)")
                #expect(try phone.info().ruleProblems == ["the sync log's mutation 2 is not as tabstore writes it"])
                #expect(picture(try server.tabSet(named: "main")) == serverBefore)
                #expect(picture(try phone.tabSet(named: "main")) == phoneBefore)
                #expect(try phone.syncStatus().pending == 1)
                named += 1
            } else {
                #expect(try phone.syncStatus().pending == 0)
                #expect(try phone.info().ruleProblems == [])
                #expect(try everyTab(of: phone) == everyTab(of: server), "\(damaged)")
                synced += 1
            }
        }
        // Both outcomes were met: the property was tried on each side.
        #expect(named > 0 && synced > 0)
    }

    /// Deletes the journal rows of a file through `id`, as its trim does; returns how many.
    private static func deleteJournal(through id: Int, of path: String) throws -> Int? {
        try sqlite(path, "DELETE FROM change WHERE id <= \(id); SELECT changes();")
    }

    /// Runs `sql` on a file with the sqlite3 shell; the integer it prints.
    private static func sqlite(_ path: String, _ sql: String) throws -> Int? {
        Int(try SQLiteShell.run(path, sql).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The messages are the documented JSON: an app's backend decodes what a device encodes.
    @Test func theMessagesRoundTripThroughJSON() throws {
        let id = try #require(TabID("0f8fad5b-d9cb-469f-a165-70867728950e"))
        let push = TabSyncPush(device: "phone", mutations: [
            .init(number: 1, mutation: .add(set: "main", tabs: [SyncedTab(id: id, title: "Home", payload: ["icon": "house"])], before: nil, creatingSet: true)),
            .init(number: 2, mutation: .select(set: "main", id: id)),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(push), as: UTF8.self)
        #expect(json == #"{"device":"phone","mutations":[{"mutation":{"add":{"creatingSet":true,"set":"main","tabs":[{"id":"0f8fad5b-d9cb-469f-a165-70867728950e","payload":{"icon":"house"},"title":"Home"}]}},"number":1},{"mutation":{"select":{"id":"0f8fad5b-d9cb-469f-a165-70867728950e","set":"main"}},"number":2}],"version":1}"#)
        #expect(try JSONDecoder().decode(TabSyncPush.self, from: Data(json.utf8)) == push)
    }

    /// Every mutation reads back from a device's log as it was written, whatever its text.
    @Test func everyMutationReadsBackFromTheLog() throws {
        var random = SplitMix64(seed: 7)
        let texts = ["", "a", "1:x", "12:", "홈 🍕", "\u{7F}", "a:b:c", String(repeating: "z", count: 300)]
        func text() -> String { texts[random.below(texts.count)] }
        func tabs() -> [SyncedTab] {
            (0..<random.below(4)).map { _ in SyncedTab(id: TabID(), title: text(), payload: random.below(2) == 0 ? [:] : [text(): text(), "k": text()]) }
        }
        for _ in 0..<500 {
            let id = TabID()
            let mutations: [TabMutation] = [
                .add(set: text(), tabs: tabs(), before: random.below(2) == 0 ? nil : id, creatingSet: random.below(2) == 0),
                .remove(set: text(), ids: tabs().map(\.id)), .move(set: text(), id: id, before: nil), .move(set: text(), id: id, before: TabID()),
                .rename(set: text(), id: id, title: text()), .select(set: text(), id: id), .setPayload(set: text(), id: id, payload: [text(): text()]),
                .ensureSet(set: text(), tabs: tabs()), .put(set: text(), tabs: tabs(), selectedIndex: random.below(2) == 0 ? nil : random.below(5), replacing: tabs().map(\.id)),
                .unreadable(kind: text(), problem: text()),
                .renameSet(set: text(), to: text()), .removeSet(set: text()),
            ]
            for mutation in mutations { #expect(TabMutation(stored: mutation.stored) == mutation) }
        }
        for broken in ["", "3:add", "3:add4:main", "9:remove", "6:remove4:main3:xyz", "4:nope4:main", "x:add", "999999999999:a"] {
            #expect(TabMutation(stored: broken) == nil, "\(broken)")
        }
    }

    /// A sync with a server by its name decides what `tabstore sync` needs: the checks come
    /// before the server is opened; a device that never synced may make its server, one
    /// that has synced never makes it again, and its failure comes back with what it had
    /// done; another name of the same file is the server the device knows.
    @Test func aSyncWithANamedServerMakesTheServerOnlyForADeviceThatNeverSynced() throws {
        let folder = TemporaryFolder()
        let serverPath = folder.file("server.sqlite")
        let phone = try TabStore(path: folder.file("phone.sqlite"))
        try phone.add(["Home"], to: "main", creatingSet: true)
        var asked: [Bool] = []
        func opening(_ creating: Bool) throws(TabStoreError) -> TabStore {
            asked.append(creating)
            return try TabStore(path: serverPath, options: TabStore.Options(createsMissingDatabase: creating))
        }
        let first = try phone.sync(withServerNamed: serverPath, opening: opening)
        #expect(first.failure == nil && first.pushed == 1 && first.pending == 0 && first.server == serverPath)
        #expect(asked == [true])
        #expect(try phone.syncStatus().server == serverPath)
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.sqlite"), withDestinationPath: serverPath)
        let byLink = try phone.sync(withServerNamed: folder.file("link.sqlite"), opening: opening)
        #expect(byLink.failure == nil && byLink.server == serverPath)
        #expect(asked == [true, false])
        let other = thrownError { () throws(TabStoreError) in try phone.sync(withServerNamed: folder.file("other.sqlite"), opening: opening) }
        #expect(other == TabStoreError(.syncsWithAnotherServer(path: phone.location, server: serverPath)))
        #expect(asked == [true, false])
        try FileManager.default.removeItem(atPath: serverPath)
        try phone.add(["Map"], to: "main")
        let away = try phone.sync(withServerNamed: serverPath, opening: opening)
        #expect(asked == [true, false, false])
        #expect(away.failure == TabSyncReport.Failure(error: TabStoreError(.databaseNotFound(path: serverPath)), server: nil, deviceHadSynced: true))
        #expect(away.pushed == 0 && away.pending == 1 && away.roundTrips == 0)
        #expect(!FileManager.default.fileExists(atPath: serverPath))
    }
}
