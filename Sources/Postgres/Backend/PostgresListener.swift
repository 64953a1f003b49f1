#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization
import TabStoreKit

/// Wakes the change hub when another client may have committed to a set its observers
/// follow. Notifications are hints; the journal is the truth.
///
/// On a primary, a connection of its own LISTENs: on each followed set's channel
/// (`channel(ofSet:schema:)`), or on `tabstore_changes` when an observer follows every
/// set; every write notifies both for each set it changes, so an idle watcher of one set
/// is never woken by writes to others. A standby cannot LISTEN: there the journal is read
/// every `standbyInterval` instead, and a standby promoted meanwhile is listened to from
/// then on. An idle listener sleeps in poll() until a notification comes or its store
/// rings its bell (new sets followed, a read held back, the store closed). After the
/// connection drops (the server restarted, the backend was terminated) it reconnects
/// with a growing pause and wakes the hub once at once, which reads the
/// journal from the last change it handed out: nothing committed meanwhile is lost, and
/// nothing is handed out twice. While it cannot reconnect the server counts as away; a
/// refusal for good (the database dropped, the login revoked) wakes the hub, whose read
/// then fails and ends its observers.
final class PostgresListener: Wakeup {
    static let channel = PostgresChannel.everySet
    /// How often the hub reads the journal anyway while notifications work: a dead link is
    /// found by the connection's keepalives (about 11 s), so this is only a bound on what
    /// an unforeseen loss could hide. A read a second per watcher made 64 idle watchers a
    /// load on the server.
    static let safetyInterval = Duration.seconds(30)
    /// How often the journal is read on a standby (at least the store's poll interval):
    /// a change shows up this long after the standby replayed it, at the most.
    static let standbyInterval = Duration.milliseconds(250)
    /// How often the journal is read while a read left changes behind a transaction still
    /// running (see `PostgresRecords.changes(after:)`): tabstore's transactions end within
    /// milliseconds, and their notification may be on another set's channel.
    static let heldBackInterval = Duration.milliseconds(20)
    /// The longest name a notification's payload carries (payloads hold 7,999 bytes).
    static let longestPayload = 7000

    static func channel(ofSet name: String, schema: String) -> String {
        PostgresChannel.ofSet(name, schema: schema)
    }

    /// Shared with the loop, which outlives nothing but its own run.
    private final class Flags: Sendable {
        let cancelled = Atomic<Bool>(false)
        let listening = Atomic<Bool>(false)
        /// The sets followed (nil: every set), and a count of changes to it.
        let followed = Mutex<(sets: [String]?, version: Int)>((nil, 0))
    }

    private let flags = Flags()
    private let journal: PostgresJournalState
    /// Wakes the loop from its wait; nil when no pipe could be made (the loop then looks
    /// every `bellessWait`).
    private let bell = ListenerBell()
    static let bellessWait = Duration.milliseconds(200)

    var isWatching: Bool { flags.listening.load(ordering: .relaxed) }

    init(
        url: DatabaseURL, session: PostgresSession, status: PostgresServerStatus, journal: PostgresJournalState,
        pollInterval: Duration, queue: DispatchQueue, handler: @escaping @Sendable () -> Void
    ) {
        self.journal = journal
        // Every set until the hub says which.
        journal.followed.withLock { $0 = nil }
        journal.bell.withLock { [bell] in $0 = bell }
        let interval = max(pollInterval, Self.safetyInterval).milliseconds
        let standby = max(pollInterval, Self.standbyInterval).milliseconds
        // A thread of its own: the loop blocks in poll() between notifications.
        DispatchQueue(label: "tabstore.listen").async { [flags, bell] in
            Self.listen(url: url, session: session, status: status, journal: journal, intervals: (interval, standby), flags: flags,
                        bell: bell, wake: { queue.async(execute: handler) })
        }
    }

    func follow(_ setNames: [String]?) {
        journal.followed.withLock { $0 = setNames }
        flags.followed.withLock { followed in
            followed = (setNames, followed.version + 1)
        }
        bell?.ring()
    }

    func cancel() {
        flags.cancelled.store(true, ordering: .relaxed)
        journal.bell.withLock { $0 = nil }
        bell?.ring()
    }

    private static func listen(
        url: DatabaseURL, session: PostgresSession, status: PostgresServerStatus, journal: PostgresJournalState,
        intervals: (safety: Int, standby: Int), flags: Flags, bell: ListenerBell?, wake: () -> Void
    ) {
        var connection: PostgresConnection?
        /// The channels LISTENed to on `connection`, and the version of the followed sets they are for.
        var channels: Set<String> = []
        var channelsVersion = -1
        /// The channels whose watch lock this connection holds (writes notify those only).
        var registered: Set<String> = []
        var pause = 0
        var sinceWake = 0
        while !flags.cancelled.load(ordering: .relaxed) {
            guard let current = connection else {
                if pause > 0 { sleep(milliseconds: pause) }
                do throws(TabStoreError) {
                    var once = FailoverWindow(.zero)
                    connection = try PostgresSlot.connect(url, session: session, window: &once)
                    channels = []
                    channelsVersion = -1
                    registered = []
                    pause = 0
                    // Whatever was committed while nobody listened is in the journal.
                    wake()
                    sinceWake = 0
                } catch {
                    if PostgresServerStatus.isAway(error) {
                        status.wentAway(error)
                    } else {
                        // The hub's own read meets the same refusal and ends its observers.
                        wake()
                    }
                    pause = min(max(pause * 2, 50), 2000)
                }
                continue
            }
            do throws(PostgresFailure) {
                // The server reports a promotion (in_hot_standby), read with each wait below.
                let isStandby = current.parameter("in_hot_standby") == "on"
                if !isStandby {
                    let followed = flags.followed.withLock { $0 }
                    if followed.version != channelsVersion {
                        let wanted = Set(followed.sets.map { names in names.map { channel(ofSet: $0, schema: current.schema) } } ?? [channel])
                        try current.changeListening(from: channels, to: wanted, registered: registered)
                        channels = wanted
                        registered.formIntersection(wanted)
                        channelsVersion = followed.version
                    }
                    if registered != channels {
                        let newly = try current.register(channels.subtracting(registered))
                        registered.formUnion(newly)
                        // Writes from now on notify; what came before is in the journal.
                        if !newly.isEmpty {
                            wake()
                            sinceWake = 0
                        }
                    }
                }
                flags.listening.store(!isStandby, ordering: .relaxed)
                let heldBack = journal.heldBack.load(ordering: .relaxed)
                let soon = heldBack || registered != channels
                let idle = bell == nil ? Self.bellessWait.milliseconds : max(intervals.safety - sinceWake, 1)
                let wait = soon ? heldBackInterval.milliseconds : isStandby ? min(intervals.standby, idle) : idle
                let started = monotonicMilliseconds()
                let hints = try current.waitForNotifications(timeout: wait, orReadable: bell?.descriptor)
                bell?.drain()
                sinceWake += max(monotonicMilliseconds() - started, 0)
                if !hints.isEmpty || heldBack || sinceWake >= (isStandby ? intervals.standby : intervals.safety) {
                    wake()
                    sinceWake = 0
                }
            } catch {
                connection = nil
                flags.listening.store(false, ordering: .relaxed)
            }
        }
        flags.listening.store(false, ordering: .relaxed)
    }
}

/// What the backend's journal reads leave for its listener to know.
final class PostgresJournalState: Sendable {
    /// Whether the last read left committed changes behind a transaction still running.
    let heldBack = Atomic<Bool>(false)
    /// The sets the hub's observers follow (nil: every set): a read asks for theirs only.
    let followed = Mutex<[String]?>(nil)
    /// The listener's bell, rung when a read was held back so that it reads again soon.
    let bell = Mutex<ListenerBell?>(nil)
}

/// A pipe a listener's wait also watches: writing a byte ends the wait at once.
final class ListenerBell: Sendable {
    let descriptor: Int32
    private let writeEnd: Int32

    /// nil when no pipe can be made (no descriptor free).
    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (descriptor, writeEnd) = (ends[0], ends[1])
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// A full pipe has rung already: the byte that could not go is not needed.
    func ring() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &bytes, bytes.count) > 0 {}
    }
}

private func monotonicMilliseconds() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
}

extension PostgresConnection {
    /// LISTENs to the channels of `wanted` not in `current` and UNLISTENs the others, letting
    /// go of the watch locks held of those (`registered`), in one round trip.
    func changeListening(from current: Set<String>, to wanted: Set<String>, registered: Set<String>) throws(PostgresFailure) {
        let quoted = { (channel: String) in "\"" + channel.replacing("\"", with: "\"\"") + "\"" }
        let dropped = current.subtracting(wanted).sorted()
        let commands = wanted.subtracting(current).sorted().map { "LISTEN " + quoted($0) }
            + dropped.map { "UNLISTEN " + quoted($0) }
            + dropped.filter(registered.contains).map { "SELECT pg_catalog.pg_advisory_unlock_shared(\(PostgresChannel.watchKey($0, schema: schema)))" }
        guard !commands.isEmpty else { return }
        try executeScript(commands.joined(separator: "; "))
    }

    /// Takes in share the watch locks of `channels` that no write holds now, and returns
    /// their channels; the others are tried again later (a write holds one until its COMMIT).
    func register(_ channels: Set<String>) throws(PostgresFailure) -> Set<String> {
        let byKey = Dictionary(channels.map { (String(PostgresChannel.watchKey($0, schema: schema)), $0) }, uniquingKeysWith: { first, _ in first })
        let held = try execute("SELECT key::text FROM unnest($1::bigint[]) AS key WHERE pg_catalog.pg_try_advisory_lock_shared(key)",
                               ["{" + byKey.keys.sorted().joined(separator: ",") + "}"])
        return Set((0..<held.count).compactMap { held.value($0, 0).flatMap { byKey[$0] } })
    }
}

/// The channels writes notify (the benchmark's raw clients send the same).
///
/// PostgreSQL wakes every listening connection of a database for every notification,
/// whatever its channel, so a write notifies only the channels someone listens to: a
/// listener holds the channel's watch lock (`watchKey`) in share on its own connection, and
/// a write that can take that lock sends nothing there. For a set's channel the write takes
/// it until COMMIT (the set's writers already follow one another), so a listener that
/// holds it afterwards finds that write in the journal; for the channel of every set, which
/// writers of all sets would contend for, it only tries and lets go at once, and a watcher
/// starting meanwhile finds such a write at its next read of the journal.
package enum PostgresChannel {
    /// What a watcher of every set listens to; the payload is the set's name.
    package static let everySet = "tabstore_changes"

    /// The notifications of a write ($1: the channels, $2: the payloads, $3: their watch
    /// keys), sent where a listener holds the key.
    package static let notifyWatched = """
        SELECT pg_catalog.pg_notify(channel, payload) FROM unnest($1::text[], $2::text[], $3::bigint[]) AS given (channel, payload, watch)
        WHERE CASE WHEN channel = '\(everySet)'
                   THEN CASE WHEN pg_catalog.pg_try_advisory_lock(watch) THEN NOT pg_catalog.pg_advisory_unlock(watch) ELSE true END
                   ELSE NOT pg_catalog.pg_try_advisory_xact_lock(watch) END
        """

    /// The key of the advisory lock a listener of `channel` in `schema` holds in share: a
    /// 64-bit FNV-1a hash (a one-key advisory lock, apart from the two-key locks of names).
    package static func watchKey(_ channel: String, schema: String) -> Int64 {
        Int64(bitPattern: fnv1a(Array("watch".utf8) + [0] + Array(schema.utf8) + [0] + Array(channel.utf8)))
    }

    /// The channel of the set `name` in `schema`: `tabstore_set_` and a 64-bit FNV-1a hash of
    /// their bytes (a channel name holds 63 bytes; two sets sharing one wake each other
    /// for nothing, never miss a change).
    package static func ofSet(_ name: String, schema: String) -> String {
        let hex = String(fnv1a(Array(schema.utf8) + [0] + Array(name.utf8)), radix: 16)
        return "tabstore_set_" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    private static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
