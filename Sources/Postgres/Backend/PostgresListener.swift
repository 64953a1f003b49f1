import Dispatch
import Synchronization
import TabStoreKit

/// Wakes the change hub when another client may have committed: a connection of its own
/// LISTENs on `tabstore_changes`, which every write notifies. Notifications are hints;
/// the journal is the truth. After the connection drops (the server restarted, the
/// backend was terminated) it reconnects with a growing pause, LISTENs again and wakes
/// the hub once at once, which reads the journal from the last change it handed out:
/// nothing committed meanwhile is lost, and nothing is handed out twice. While it cannot
/// reconnect the server counts as away; a refusal for good (the database dropped, the
/// login revoked) wakes the hub, whose read then fails and ends its observers.
final class PostgresListener: Wakeup {
    static let channel = "tabstore_changes"
    /// How often the hub reads the journal anyway while notifications work.
    static let safetyInterval = Duration.seconds(1)

    /// Shared with the loop, which outlives nothing but its own run.
    private final class Flags: Sendable {
        let cancelled = Atomic<Bool>(false)
        let listening = Atomic<Bool>(false)
    }

    private let flags = Flags()

    var isWatching: Bool { flags.listening.load(ordering: .relaxed) }

    init(
        url: DatabaseURL, session: PostgresSession, status: PostgresServerStatus, pollInterval: Duration,
        queue: DispatchQueue, handler: @escaping @Sendable () -> Void
    ) {
        let interval = max(pollInterval, Self.safetyInterval).milliseconds
        // A thread of its own: the loop blocks in poll() between notifications.
        DispatchQueue(label: "tabstore.listen").async { [flags] in
            Self.listen(url: url, session: session, status: status, interval: interval, flags: flags,
                        wake: { queue.async(execute: handler) })
        }
    }

    func cancel() {
        flags.cancelled.store(true, ordering: .relaxed)
    }

    private static func listen(
        url: DatabaseURL, session: PostgresSession, status: PostgresServerStatus, interval: Int, flags: Flags, wake: () -> Void
    ) {
        var connection: PostgresConnection?
        var pause = 0
        var sinceWake = 0
        while !flags.cancelled.load(ordering: .relaxed) {
            guard let current = connection else {
                if pause > 0 { sleep(milliseconds: pause) }
                do throws(TabStoreError) {
                    var once = FailoverWindow(.zero)
                    let fresh = try PostgresSlot.connect(url, session: session, window: &once)
                    do { try fresh.listen(channel) } catch { throw error.storeError(server: fresh.server, outcomeUnknown: false) }
                    connection = fresh
                    flags.listening.store(true, ordering: .relaxed)
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
            // Short waits, so that a cancelled listener ends soon.
            let wait = 200
            do {
                let hints = try current.waitForNotifications(timeout: wait)
                sinceWake += wait
                if !hints.isEmpty || sinceWake >= interval {
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
