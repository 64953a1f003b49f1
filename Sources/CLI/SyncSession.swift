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
    /// The server as the command line names it (a file by its absolute path, a URL without
    /// its password); the library may know it by another name of the same file.
    let name: String
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
    /// under way, if any) and exits 0. A store that can no longer be followed ends it with
    /// its error's line and exit code, as a `watch` ends: no sync would start again.
    func run(printingFirst first: RunResult) -> Never {
        let wakeUp = LongRunning.signalPipe("sync", json: json) { end($0) }
        // The first sync is done: its lines are printed whatever comes next.
        WatchSession.endIfNotWritten(ProcessOutput.printStandardOutput(first.standardOutput), json: json)
        ProcessOutput.printStandardError(first.standardError)
        // Before anything starts a thread or a dispatch source: when the system will not
        // give what following two stores needs, one line says so (exit 3) instead of a trap
        // in libdispatch, or a session that never syncs again.
        if let reason = ThreadProbe.refusal(threads: Self.threadsNeeded) {
            LongRunning.refuse("sync", "the system will not start a thread (\(reason))", json: json) { end($0) }
        }
        LongRunning.checkDescriptors("sync", following: Self.storesFollowed, json: json) { end($0) }
        let due = SyncDue()
        let session = self
        follow(device, due)
        if let opened = server.store { follow(opened, due) }
        DispatchQueue(label: "tabstore.sync").async { session.keepSyncing(due) }
        SignalPipe.waitForSignal(on: wakeUp)
        end(ExitCode.success)
    }

    /// The stores a session follows: the device and its server.
    static let storesFollowed = 2

    /// The threads a session keeps busy at once: a watch's, the second store's change hub,
    /// and the loop that syncs.
    static let threadsNeeded = ThreadProbe.threadsNeeded + 2

    /// Ends the process with `code`, both stores closed first (after the write under way,
    /// if any), as a watch's store is: a file's last connection removes its -wal and -shm.
    private func end(_ code: Int32) -> Never {
        let server = self.server
        device.closeAndEnd {
            guard let opened = server.store else { _exit(code) }
            opened.closeAndEnd { _exit(code) }
        }
    }

    /// Marks a sync due at each change of `store`. A stream that fails (its journal cannot
    /// be read, or its changes cannot be followed) ends the session with that error: no
    /// change of that store would start a sync any more.
    private func follow(_ store: TabStore, _ due: SyncDue) {
        let changes = store.changes()
        let session = self
        Task {
            do {
                for try await _ in changes { due.mark() }
            } catch {
                // A server given up for the file now at its path is followed anew: the error
                // of its old store's stream tells of a store no longer used.
                guard store === session.device || session.server.store === store else { return }
                let failure = Runner.failure(
                    .store(error as? TabStoreError ?? TabStoreError(.cannotFollowChanges(path: store.location, reason: "\(error)"))),
                    json: session.json, program: Program.spec
                )
                ProcessOutput.printStandardError(failure.standardError)
                session.end(failure.exitCode)
            }
        }
    }

    /// One sync: the library's, the server opened first when it is not yet (and given to
    /// `opening`).
    func syncOnce(opening: (TabStore) -> Void = { _ in }) throws(CLIError) -> TabSyncReport {
        try storeCall { () throws(TabStoreError) in
            try device.sync(withServerNamed: name) { creating throws(TabStoreError) in
                let (store, isNew) = try server.open(creating: creating)
                if isNew { opening(store) }
                return store
            }
        }
    }

    /// Syncs each time something is due: changes that came during a sync make one more.
    private func keepSyncing(_ due: SyncDue) {
        var failing = firstFailed
        while true {
            due.wait(orAfter: failing ? Self.retryDelay : nil)
            do throws(CLIError) {
                let report = try syncOnce { opened in follow(opened, due) }
                if let failure = SyncCommand.failure(of: report) { throw failure }
                failing = false
                guard report.pushed > 0 || report.setsPulled > 0 || !report.refusals.isEmpty else { continue }
                WatchSession.endIfNotWritten(ProcessOutput.printStandardOutput(SyncCommand.output(report, json: json)), json: json)
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

    private let opener: StoreOpener
    private let opened = Mutex<Opened?>(nil)

    /// The server `opener` opens, opened at its first sync.
    init(opening opener: StoreOpener) throws(CLIError) {
        try opener.requireServed()
        self.opener = opener
    }

    /// The server as last opened.
    var store: TabStore? { opened.withLock { $0?.store } }

    /// The server, opened now (`isNew`) when it was not yet, or its file is no longer the
    /// one at its path; made when missing if `creating`. Called from one thread.
    func open(creating: Bool) throws(TabStoreError) -> (store: TabStore, isNew: Bool) {
        if let current = opened.withLock({ $0 }) {
            if current.file == nil || DatabasePath.fileIdentity(opener.location) == current.file { return (current.store, false) }
            opened.withLock { $0 = nil }
        }
        let store = try opener.open(creating: creating)
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
