import Foundation
import TabStoreFoundation
import TabStoreKit
import TabStoreSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Fuzz targets for what devices hand a sync server, and what a device's own log may hold
// after another program wrote to it. Their oracle is what a server and its honest devices
// must keep whatever comes: no trap, a refusal that is one of sync's own, a server whose
// check finds nothing, devices that sync and agree with it.

/// The codes a message may be refused with as a whole.
private let messageRefusals: [TabStoreError.Code] = [.invalidSyncMessage, .syncVersionNotSupported, .syncLimitExceeded, .deviceCopied]

/// Every set of a store as (name, tabs as "*title id payload"), revisions aside.
private func picture(of store: TabStore) -> [String: [String]] {
    do {
        return Dictionary(uniqueKeysWithValues: try store.tabSets().map { summary in
            let set = try store.tabSet(named: summary.name)
            return (set.name, set.tabs.map { "\($0.isSelected ? "*" : "")\($0.title) \($0.id) \($0.payload.sorted { $0.key < $1.key })" })
        })
    } catch {
        fail("a store's sets did not read: \(error)")
    }
}

/// A server and an honest device that synced with it, in memory.
private func honestPair() -> (server: TabStore, device: TabStore) {
    do {
        let server = try TabStore(path: ":memory:")
        let device = try TabStore(path: ":memory:")
        try device.startSync(server: "fuzz")
        try device.add([NewTab("Home"), NewTab("Map", payload: ["icon": "map"])], to: "main", creatingSet: true)
        try device.sync(with: server)
        return (server, device)
    } catch {
        fail("the honest device did not sync: \(error)")
    }
}

/// After whatever a hostile device did: the server is sound, the honest device syncs and
/// agrees with it with its own set whole, and a new device does too.
private func checkHonestDevicesStillSync(_ server: TabStore, _ device: TabStore, honest: [String]) {
    do {
        let info = try server.info()
        guard info.consistencyCheck == "ok" else { fail("the server's check found: \(info.consistencyCheck)") }
        try device.sync(with: server)
        let fresh = try TabStore(path: ":memory:")
        try fresh.startSync(server: "fuzz")
        guard try fresh.sync(with: server).pending == 0 else { fail("a new device has edits pending after its first sync") }
        let truth = picture(of: server)
        guard picture(of: device) == truth, picture(of: fresh) == truth else { fail("a device does not agree with the server after syncing") }
        guard truth["main"] == honest else { fail("the honest device's set changed: \(truth["main"] ?? [])") }
    } catch {
        fail("an honest device could not sync after a hostile one: \(error)")
    }
}

/// Any bytes as each sync message: refused with one of sync's codes in one line, or a
/// message that encodes and reads back as itself.
enum SyncMessageProperties {
    static func check(_ bytes: [UInt8]) {
        read(TabSyncPush.self, bytes, TabSyncPush.init(json:))
        read(TabSyncPull.self, bytes, TabSyncPull.init(json:))
        read(TabSyncPushResult.self, bytes, TabSyncPushResult.init(json:))
        read(TabSyncPullResult.self, bytes, TabSyncPullResult.init(json:))
    }

    private static func read<Message: Codable & Equatable>(
        _ type: Message.Type, _ bytes: [UInt8], _ reader: ([UInt8]) throws(TabStoreError) -> Message
    ) {
        let message: Message
        do {
            message = try reader(bytes)
        } catch {
            guard messageRefusals.contains(error.code) else { fail("reading a \(type) gave \(error.code), not a message refusal") }
            checkSentence(error.description, what: "the reading error")
            return
        }
        guard let encoded = try? JSONEncoder().encode(message) else { fail("a \(type) read did not encode") }
        guard let again = try? reader(Array(encoded)), again == message else { fail("a \(type) read does not read back from its own JSON") }
    }
}

/// Bytes as the choices of a hostile device: pushes of crafted mutations and pulls, sent
/// to a server that an honest device syncs with.
enum SyncServerProperties {
    static func check(_ bytes: [UInt8]) {
        let (server, device) = honestPair()
        let honest = picture(of: server)["main"] ?? []
        let honestIDs = ((try? server.tabSet(named: "main"))?.tabs.map(\.id)) ?? []
        var source = ByteSource(bytes[...])
        var next = 1
        for _ in 0..<4 where !source.isEmpty {
            do throws(TabStoreError) {
                if source.byte() % 4 == 0 {
                    let pull = TabSyncPull(device: source.deviceID(), cookie: source.number(), settled: source.number(), sets: [source.name()], version: source.version())
                    _ = try server.pull(pull)
                } else {
                    let count = 1 + Int(source.byte() % 3)
                    let first = source.byte() % 5 == 0 ? source.number() : next
                    let mutations = (0..<count).map { offset in
                        TabSyncPush.Numbered(number: first &+ offset, mutation: source.mutation(honestIDs: honestIDs))
                    }
                    let answer = try server.push(TabSyncPush(device: "hostile", mutations: mutations, version: source.version()))
                    next = answer.lastMutation + 1
                }
            } catch {
                guard messageRefusals.contains(error.code) else { fail("a crafted message gave \(error.code): \(error)") }
                checkSentence(error.description, what: "the refusal")
            }
        }
        checkHonestDevicesStillSync(server, device, honest: honest)
    }
}

/// Bytes as a pending mutation's stored form in a device's file (another program wrote it):
/// it reads back as itself when it reads at all, and the device either syncs it (the
/// server and the device agreeing after) or fails as a damaged log, changing nothing.
enum SyncLogProperties {
    static let folder = CommandLineProperties.folder
    static let pristine: [UInt8] = {
        let path = folder + "/device.db"
        do {
            let device = try TabStore(path: path)
            try device.startSync(server: "fuzz")
            try device.add(["Home", "Map"], to: "main", creatingSet: true)
        } catch {
            fail("the fuzz device was not made: \(error)")
        }
        return readFile(path)
    }()

    static func check(_ bytes: [UInt8]) {
        let body = String(decoding: bytes, as: UTF8.self)
        if let mutation = TabMutation(stored: body), TabMutation(stored: mutation.stored) != mutation {
            fail("a stored mutation does not read back from its own stored form")
        }
        let path = folder + "/log.db"
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
        writeFile(path, pristine)
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK else { fail("the device file did not open") }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "UPDATE sync_mutation SET body = ?", -1, &statement, nil) == SQLITE_OK else { fail("no update") }
        // With a NUL after them, so that an empty body is a pointer too.
        let text = bytes.map { CChar(bitPattern: $0) } + [0]
        _ = text.withUnsafeBufferPointer { buffer in
            sqlite3_bind_text(statement, 1, buffer.baseAddress, Int32(bytes.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
        guard sqlite3_step(statement) == SQLITE_DONE else { fail("the body was not written") }
        sqlite3_finalize(statement)
        sqlite3_close(handle)
        do {
            let server = try TabStore(path: ":memory:")
            let device = try TabStore(path: path)
            do {
                try device.sync(with: server)
            } catch {
                guard error.code == .damagedSyncLog else { fail("a device with a written log failed its sync with \(error.code): \(error)") }
                guard try server.tabSets().isEmpty, try device.syncStatus().pending == 1 else { fail("a damaged log's sync changed something") }
                guard try device.info().consistencyCheck != "ok" else { fail("info's check does not find a log the sync finds damaged") }
                return
            }
            guard try server.info().consistencyCheck == "ok" else { fail("a device's log left the server damaged") }
            guard picture(of: device) == picture(of: server) else { fail("the device and the server disagree after its log synced") }
        } catch {
            fail("a store failed around a written log: \(error)")
        }
    }
}

/// Choices taken from the fuzzer's bytes, so that it steers each one.
struct ByteSource {
    private var rest: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) {
        rest = bytes
    }

    var isEmpty: Bool { rest.isEmpty }

    mutating func byte() -> UInt8 { rest.popFirst() ?? 0 }

    /// Text of up to 15 bytes as the input has them (any UTF-8, NUL and controls included),
    /// or one of a few that reach past the checks, or a long one.
    mutating func text() -> String {
        let choice = byte()
        switch choice % 8 {
        case 0: return "t\(choice)"
        case 1: return "a" + String(repeating: "\u{301}", count: 600)
        case 2: return String(repeating: "x", count: 257)
        default:
            let count = min(Int(choice >> 3) % 16, rest.count)
            defer { rest = rest.dropFirst(count) }
            return String(decoding: rest.prefix(count), as: UTF8.self)
        }
    }

    /// A set name apart from the honest device's, however hostile the rest of it.
    mutating func name() -> String { "x" + text() }

    mutating func deviceID() -> String { byte() % 4 == 0 ? text() : "hostile" }

    mutating func number() -> Int {
        let extremes = [Int.min, -1, 0, 1, 2, TabSyncLimits.largestNumber, TabSyncLimits.largestNumber + 1, Int.max]
        return extremes[Int(byte()) % extremes.count]
    }

    mutating func version() -> Int { [1, 1, 1, 1, 1, 0, 2, Int.max][Int(byte()) % 8] }

    mutating func id(_ honest: [TabID], repeated: TabID) -> TabID {
        switch byte() % 5 {
        case 0: .unknown
        case 1: honest.isEmpty ? TabID() : honest[Int(byte()) % honest.count]
        case 2: repeated
        default: TabID()
        }
    }

    mutating func tabs(_ honest: [TabID], repeated: TabID) -> [SyncedTab] {
        (0..<Int(byte() % 4)).map { _ in
            SyncedTab(id: id(honest, repeated: repeated), title: text(), payload: byte() % 3 == 0 ? [text(): text()] : [:])
        }
    }

    mutating func mutation(honestIDs honest: [TabID]) -> TabMutation {
        let repeated = TabID()
        switch byte() % 11 {
        case 0: return .add(set: name(), tabs: tabs(honest, repeated: repeated), before: byte() % 2 == 0 ? nil : id(honest, repeated: repeated), creatingSet: byte() % 4 != 0)
        case 1: return .remove(set: name(), ids: (0..<Int(byte() % 3)).map { _ in id(honest, repeated: repeated) })
        case 2: return .move(set: name(), id: id(honest, repeated: repeated), before: byte() % 2 == 0 ? nil : id(honest, repeated: repeated))
        case 3: return .rename(set: name(), id: id(honest, repeated: repeated), title: text())
        case 4: return .select(set: name(), id: id(honest, repeated: repeated))
        case 5: return .setPayload(set: name(), id: id(honest, repeated: repeated), payload: [text(): text()])
        case 6: return .ensureSet(set: name(), tabs: tabs(honest, repeated: repeated))
        case 7:
            let tabs = tabs(honest, repeated: repeated)
            let index = [nil, -1, 0, 1, tabs.count, Int.max][Int(byte()) % 6]
            return .put(set: name(), tabs: tabs, selectedIndex: index, replacing: (0..<Int(byte() % 3)).map { _ in id(honest, repeated: repeated) })
        case 8: return .renameSet(set: name(), to: name())
        case 9: return .removeSet(set: name())
        default: return .unreadable(kind: text(), problem: text())
        }
    }
}
