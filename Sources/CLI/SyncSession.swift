// `sync --watch`: syncs again whenever the device or the server changes, until a signal.
import Dispatch
import Synchronization
import TabStoreKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A device kept in sync: the device's own edits and the server's changes (a server's
/// notifications, a file's watch) each start a sync; a failed one is tried again.
struct SyncSession: Sendable, Equatable {
    let device: TabStore
    let server: SyncServer
    let shownServer: String
    let json: Bool
    /// The first sync failed, and said so: the next waits for the retry delay.
    var firstFailed = false

    static func == (lhs: SyncSession, rhs: SyncSession) -> Bool {
        lhs.device === rhs.device && lhs.server === rhs.server && lhs.json == rhs.json && lhs.firstFailed == rhs.firstFailed
    }

    /// How long a sync that failed waits before it is tried again.
    static let retryDelay: Duration = .seconds(2)

    /// Prints `first` (the first sync's lines), then the lines of each later sync that
    /// moved something, until SIGINT or SIGTERM; then closes both stores (after the write
    /// under way, if any) and exits 0.
    func run(printingFirst first: RunResult) -> Never {
        guard let wakeUp = SignalPipe.install(for: [SIGINT, SIGTERM]) else {
            let failure = Runner.failure(
                .resourceRefused("cannot sync: no file descriptor is free for its signal pipe (this process has too many files open)"),
                json: json, program: Program.spec
            )
            ProcessOutput.printStandardError(failure.standardError)
            _exit(failure.exitCode)
        }
        WatchSession.endIfNotWritten(ProcessOutput.printStandardOutput(first.standardOutput), json: json)
        ProcessOutput.printStandardError(first.standardError)
        let due = SyncDue()
        let session = self
        Self.follow(device, due)
        if let opened = server.store { Self.follow(opened, due) }
        DispatchQueue(label: "tabstore.sync").async { session.keepSyncing(due) }
        SignalPipe.waitForSignal(on: wakeUp)
        // Closed as a watch's store is: a file's last connection removes its -wal and -shm.
        device.closeAndEnd {
            guard let opened = server.store else { _exit(ExitCode.success) }
            opened.closeAndEnd { _exit(ExitCode.success) }
        }
    }

    /// Marks a sync due at each change of `store`.
    private static func follow(_ store: TabStore, _ due: SyncDue) {
        let changes = store.changes()
        Task {
            do {
                for try await _ in changes { due.mark() }
            } catch {
                // A stream that cannot read ends; the retries and the other stream go on.
            }
        }
    }

    /// One sync, the server opened first when it is not yet (and given to `opening`).
    func syncOnce(opening: (TabStore) -> Void = { _ in }) throws(CLIError) -> TabSyncReport {
        let (store, isNew) = try server.open()
        if isNew { opening(store) }
        return try SyncCommand.sync(device, with: store, shownServer: shownServer)
    }

    /// Syncs each time something is due: changes that came during a sync make one more.
    private func keepSyncing(_ due: SyncDue) {
        var failing = firstFailed
        while true {
            due.wait(orAfter: failing ? Self.retryDelay : nil)
            do throws(CLIError) {
                let report = try syncOnce { opened in Self.follow(opened, due) }
                failing = false
                guard report.pushed > 0 || report.setsPulled > 0 || !report.refusals.isEmpty else { continue }
                WatchSession.endIfNotWritten(ProcessOutput.printStandardOutput(SyncCommand.output(report, server: shownServer, json: json)), json: json)
            } catch {
                // Said once a failing streak: the next success is printed when it moves something.
                if !failing { ProcessOutput.printStandardError(Runner.failure(error, json: json, program: Program.spec).standardError) }
                failing = true
            }
        }
    }
}

/// A sync session's server: opened again when its file is no longer at its path (moved
/// away, as a share unmounted, or another file put there), so that a sync never goes to a
/// file the device does not name.
final class SyncServer: Sendable {
    private struct Opened {
        let store: TabStore
        /// The server file's identity when it was opened; nil for a server URL.
        let file: FileIdentity?
    }

    /// Opens the server, never making it: the device has synced with it.
    private let opener: StoreOpener
    private let opened: Mutex<Opened?>

    /// A server opened already, as `opener` would open it.
    init(_ store: TabStore, opener: StoreOpener) {
        self.opener = opener.notCreating
        opened = Mutex(Opened(store: store, file: DatabasePath.fileIdentity(opener.location)))
    }

    /// A server to open at its first sync.
    init(opening opener: StoreOpener) {
        self.opener = opener.notCreating
        opened = Mutex(nil)
    }

    /// The server as last opened.
    var store: TabStore? { opened.withLock { $0?.store } }

    /// The server, opened now (`isNew`) when it was not yet, or its file is no longer the
    /// one at its path. Called from one thread.
    func open() throws(CLIError) -> (store: TabStore, isNew: Bool) {
        if let current = opened.withLock({ $0 }) {
            if current.file == nil || DatabasePath.fileIdentity(opener.location) == current.file { return (current.store, false) }
            opened.withLock { $0 = nil }
        }
        let store = try opener()
        opened.withLock { $0 = Opened(store: store, file: DatabasePath.fileIdentity(opener.location)) }
        return (store, true)
    }
}

/// Whether a sync is due, and a wait for one.
private final class SyncDue: Sendable {
    private let state = Mutex(false)
    private let signal = DispatchSemaphore(value: 0)

    func mark() {
        let wasDue = state.withLock { due in
            defer { due = true }
            return due
        }
        if !wasDue { signal.signal() }
    }

    /// Returns once a sync is due (or `timeout` passed), taking it.
    func wait(orAfter timeout: Duration?) {
        if let timeout {
            let (seconds, attoseconds) = timeout.components
            _ = signal.wait(timeout: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)))
        } else {
            signal.wait()
        }
        state.withLock { $0 = false }
    }
}
