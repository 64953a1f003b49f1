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
/// then on. After the connection drops (the server restarted, the backend was terminated)
/// it reconnects with a growing pause and wakes the hub once at once, which reads the
/// journal from the last change it handed out: nothing committed meanwhile is lost, and
/// nothing is handed out twice. While it cannot reconnect the server counts as away; a
/// refusal for good (the database dropped, the login revoked) wakes the hub, whose read
/// then fails and ends its observers.
final class PostgresListener: Wakeup {
    static let channel = PostgresChannel.everySet
    /// How often the hub reads the journal anyway while notifications work.
    static let safetyInterval = Duration.seconds(1)
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

    var isWatching: Bool { flags.listening.load(ordering: .relaxed) }

    init(
        url: DatabaseURL, session: PostgresSession, status: PostgresServerStatus, journal: PostgresJournalState,
        pollInterval: Duration, queue: DispatchQueue, handler: @escaping @Sendable () -> Void
    ) {
        self.journal = journal
        // Every set until the hub says which.
        journal.followed.withLock { $0 = nil }
        let interval = max(pollInterval, Self.safetyInterval).milliseconds
        let standby = max(pollInterval, Self.standbyInterval).milliseconds
        // A thread of its own: the loop blocks in poll() between notifications.
        DispatchQueue(label: "tabstore.listen").async { [flags] in
            Self.listen(url: url, session: session, status: status, journal: journal, intervals: (interval, standby), flags: flags,
                        wake: { queue.async(execute: handler) })
        }
    }

    func follow(_ setNames: [String]?) {
        journal.followed.withLock { $0 = setNames }
        flags.followed.withLock { followed in
            followed = (setNames, followed.version + 1)
        }
    }

    func cancel() {
        flags.cancelled.store(true, ordering: .relaxed)
    }

    private static func listen(
        url: DatabaseURL, session: PostgresSession, status: PostgresServerStatus, journal: PostgresJournalState,
        intervals: (safety: Int, standby: Int), flags: Flags, wake: () -> Void
    ) {
        var connection: PostgresConnection?
        /// The channels LISTENed to on `connection`, and the version of the followed sets they are for.
        var channels: Set<String> = []
        var channelsVersion = -1
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
                        try current.changeListening(from: channels, to: wanted)
                        channels = wanted
                        channelsVersion = followed.version
                    }
                }
                flags.listening.store(!isStandby, ordering: .relaxed)
                // Short waits, so that a cancelled listener ends soon.
                let heldBack = journal.heldBack.load(ordering: .relaxed)
                let wait = heldBack ? heldBackInterval.milliseconds : isStandby ? min(intervals.standby, 200) : 200
                let hints = try current.waitForNotifications(timeout: wait)
                sinceWake += wait
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
}

extension PostgresConnection {
    /// LISTENs to the channels of `wanted` not in `current` and UNLISTENs the others, in one
    /// round trip.
    func changeListening(from current: Set<String>, to wanted: Set<String>) throws(PostgresFailure) {
        let quoted = { (channel: String) in "\"" + channel.replacing("\"", with: "\"\"") + "\"" }
        let commands = wanted.subtracting(current).sorted().map { "LISTEN " + quoted($0) }
            + current.subtracting(wanted).sorted().map { "UNLISTEN " + quoted($0) }
        guard !commands.isEmpty else { return }
        try executeScript(commands.joined(separator: "; "))
    }
}

/// The channels writes notify (the benchmark's raw clients send the same).
package enum PostgresChannel {
    /// What a watcher of every set listens to; the payload is the set's name.
    package static let everySet = "tabstore_changes"

    /// The channel of the set `name` in `schema`: `tabstore_set_` and a 64-bit FNV-1a hash of
    /// their bytes (a channel name holds 63 bytes; two sets sharing one wake each other
    /// for nothing, never miss a change).
    package static func ofSet(_ name: String, schema: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array(schema.utf8) + [0] + Array(name.utf8) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "tabstore_set_" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
