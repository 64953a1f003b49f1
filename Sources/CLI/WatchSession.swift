// The one long-running part of the CLI: `watch` prints changes until a signal.
import Dispatch
import Synchronization
import TabStoreKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `watch` in progress: the store it observes and the stream of that store's changes.
struct WatchSession: Sendable, Equatable {
    enum Source: Sendable {
        /// The store (kept for the whole run: its observers stop when it is released) and
        /// its changes.
        case store(TabStore, TabStoreStream<TabChange>)
        /// A server database without tabstore's tables yet: opened once they exist.
        case tablesToCome(url: String, options: TabStore.Options)
    }

    let source: Source
    /// What this process serves a server database with; nil for a file.
    let server: ServerSupport?
    /// The set watched, or `nil` for all sets; then each text line starts with the set's name.
    let setName: String?
    let json: Bool

    static func == (lhs: WatchSession, rhs: WatchSession) -> Bool {
        let sameSource = switch (lhs.source, rhs.source) {
        case let (.store(left, _), .store(right, _)): left === right
        case let (.tablesToCome(left, _), .tablesToCome(right, _)): left == right
        default: false
        }
        return sameSource && lhs.setName == rhs.setName && lhs.json == rhs.json
    }

    /// The store and its changes: at once, or (on another thread) once the tables exist,
    /// with every change since they were made.
    func opened() async throws -> (TabStore, TabStoreStream<TabChange>) {
        switch source {
        case let .store(store, changes):
            return (store, changes)
        case let .tablesToCome(url, options):
            guard let server else { throw TabStoreError(.databaseNotFound(path: url)) }
            let store = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<TabStore, any Error>) in
                DispatchQueue.global().async {
                    continuation.resume(with: Result { () throws(TabStoreError) in try server.openOnceTablesExist(url, options) })
                }
            }
            return (store, store.changesFromJournalStart(in: setName))
        }
    }

    /// The line said on a terminal when the server goes away (`away`: why) or comes back (nil).
    func notice(away: TabStoreError?, server: String) -> String {
        let text: ErrorMessage
        switch away {
        case let error?:
            // What happened, without what it meant for an edit: a watch makes none.
            let what: ErrorMessage = switch (error.code, error.server, error.secondsWaited) {
            case let (.connectionLost, server?, _): "lost the connection to \(server)"
            case let (.serverNotAnswering, server?, seconds?): "\(server) stopped answering after \(seconds) s"
            default: error.message
            }
            if json { return JSONValue.object([("server", .string("away")), ("message", .string(what.plain))]).line }
            text = "\(what); waiting for it to come back"
        case nil:
            if json { return JSONValue.object([("server", .string("back"))]).line }
            text = "\(server) is back"
        }
        return "\(Program.spec.name): " + text.shown + "\n"
    }

    /// The line printed for one change, with its newline.
    func line(for change: TabChange) -> String {
        if json { return ChangeOutput.json(change, includingSet: true).line }
        let prefix = setName == nil ? VisibleText.shown(change.setName) + "  " : ""
        return prefix + ChangeOutput.text(change) + "\n"
    }

    /// Prints `first` (the start notice), then one line per change as it comes, until
    /// SIGINT or SIGTERM; then exits 0. When the journal can no longer be read, says why
    /// and exits as that error's code says.
    func run(printingFirst first: RunResult) -> Never {
        // A signal's handler only writes a byte to a pipe, and the main thread, blocked on
        // its other end, ends the watch: no other thread is needed for Ctrl-C to work, so it
        // works even when the system will not start one (libdispatch then retries forever).
        // The handlers are installed here, before the notice: whoever waits for the notice
        // may signal at once.
        if case let .store(store, _) = self.source { Self.watched.withLock { $0 = store } }
        let wakeUp = LongRunning.signalPipe("watch", json: json) { Self.end($0) }
        LongRunning.checkDescriptors("watch", following: 0, json: json) { Self.end($0) }
        let json = self.json
        Self.endIfNotWritten(ProcessOutput.printStandardOutput(first.standardOutput), json: json)
        ProcessOutput.printStandardError(first.standardError)
        let session = self
        // Each line is one write(2), straight away: a line is out when its change is, and
        // an exit falls between two whole lines.
        Task {
            do {
                let (store, changes) = try await session.opened()
                Self.watched.withLock { $0 = store }
                if isTerminal(STDERR_FILENO), let server = session.server {
                    server.onStatusChange(store) { away in
                        ProcessOutput.printStandardError(session.notice(away: away, server: store.location))
                    }
                }
                for try await change in changes {
                    Self.endIfNotWritten(ProcessOutput.printStandardOutput(session.line(for: change)), json: json)
                }
            } catch let error as TabStoreError {
                // The hub ends its streams only with the TabStoreError of a failed read.
                let failure = Runner.failure(.store(error), json: session.json, program: Program.spec)
                ProcessOutput.printStandardError(failure.standardError)
                Self.end(failure.exitCode)
            } catch {
                Self.end(ExitCode.database)
            }
            Self.end(ExitCode.success)
        }
        withExtendedLifetime(self.source) { SignalPipe.waitForSignal(on: wakeUp) }
        Self.end(ExitCode.success)
    }
}

/// What `watch` and `sync --watch` need before they start following changes. A check
/// that fails says so in one line (`cannot VERB: ...`, exit 3) and ends through `end`.
enum LongRunning {
    /// The descriptors left free when a long-running command starts, for libdispatch's use.
    static let spareDescriptors = 4

    /// Installs the signal pipe (SIGINT, SIGTERM).
    /// - Returns: its read end.
    static func signalPipe(_ verb: String, json: Bool, end: (Int32) -> Never) -> Int32 {
        guard let wakeUp = SignalPipe.install(for: [SIGINT, SIGTERM]) else {
            refuse(verb, "no file descriptor is free for its signal pipe (this process has too many files open)", json: json, end: end)
        }
        return wakeUp
    }

    /// Makes sure libdispatch's event loop exists with descriptors to spare, before anything
    /// starts a dispatch source, a queue's thread or a task: libdispatch makes that loop (an
    /// epoll, an eventfd, a timerfd per clock) the first time any of them runs, and traps
    /// when a descriptor it needs cannot be had, then and later (its thread pool's monitor
    /// opens /proc/self/task/*/stat as it runs). `following`: the stores still to be
    /// followed, each of which may take one more descriptor (an inotify instance).
    static func checkDescriptors(_ verb: String, following: Int, json: Bool, end: (Int32) -> Never) {
        guard TabStore.observationCanStart(sparing: spareDescriptors + following) else {
            refuse(verb, "too few file descriptors are free to follow changes (this process has too many files open)", json: json, end: end)
        }
    }

    static func refuse(_ verb: String, _ reason: ErrorMessage, json: Bool, end: (Int32) -> Never) -> Never {
        let failure = Runner.failure(.resourceRefused("cannot \(verb): \(reason)"), json: json, program: Program.spec)
        ProcessOutput.printStandardError(failure.standardError)
        end(failure.exitCode)
    }
}

extension WatchSession {
    /// The store being watched, once opened: closed as the watch ends.
    static let watched = Mutex<TabStore?>(nil)

    /// Ends the watch when its reader left (exit 0: nobody reads on) or a line could not
    /// be written (exit 4, one line on standard error).
    static func endIfNotWritten(_ written: ProcessOutput.Written, json: Bool) {
        switch written {
        case .written: return
        case .readerLeft: end(ExitCode.success)
        case let .failed(code):
            ProcessOutput.reportOutputFailure(code, savedChange: false, json: json)
            end(ExitCode.outputNotWritten)
        }
    }

    /// Ends the process with `code`. The store is closed first: the watch may be the last
    /// process to have the file open, and what another process wrote then stays in the
    /// -wal (beside a -shm) until the last connection closes. `_exit`, not `exit`:
    /// the listener and the change hub may be inside libpq on their own threads, and `exit`
    /// runs the libraries' exit handlers under them (a watch ended by SIGINT once died of
    /// SIGSEGV under load, in a run of every test). Every line was written with write(2):
    /// nothing is left in a buffer.
    static func end(_ code: Int32) -> Never {
        guard let store = watched.withLock({ $0 }) else { _exit(code) }
        store.closeAndEnd { _exit(code) }
    }
}

/// The self-pipe trick: signals become a readable byte on a pipe.
enum SignalPipe {
    /// The pipe's write end, for the handler (which can capture nothing).
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Installs a handler for `signals` that writes to a new pipe.
    /// - Returns: the pipe's read end, or `nil` when no pipe could be made.
    static func install(for signals: [Int32]) -> Int32? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        writeEnd = ends[1]
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for number in signals {
            signal(number) { _ in
                var byte: UInt8 = 1
                _ = write(SignalPipe.writeEnd, &byte, 1)
            }
            sigaddset(&unblocked, number)
        }
        // A parent may start us with them blocked (a thread of libdispatch's spawning us
        // passes its mask on): the main thread, which waits for them, takes them.
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        return ends[0]
    }

    /// Blocks until a signal's byte arrives on `readEnd`.
    static func waitForSignal(on readEnd: Int32) {
        var byte: UInt8 = 0
        while true {
            let count = read(readEnd, &byte, 1)
            if count == 1 || (count < 0 && errno != EINTR) { return }
        }
    }
}

/// Whether the system starts threads now: a watch needs a few at once (libdispatch's
/// manager and workers), and when the system refuses them (a memory limit too small for
/// their stacks) libdispatch waits and retries forever, the caller included, so the watch
/// would hang, silent and deaf to Ctrl-C.
enum ThreadProbe {
    /// The threads a watch keeps busy at once: the event manager, the change hub's queue,
    /// the task that prints, and one to spare.
    static let threadsNeeded = 4

    /// Why `count` threads could not be running at once, or nil when they could.
    static func refusal(threads count: Int = threadsNeeded) -> String? {
        var threads: [pthread_t] = []
        defer { for thread in threads { pthread_join(thread, nil) } }
        for _ in 0..<count {
            var thread = pthread_t()
            // Each waits for nothing: it only has to exist.
            let code = pthread_create(&thread, nil, { _ in nil }, nil)
            guard code == 0 else { return errorMessage(code) }
            threads.append(thread)
        }
        return nil
    }
}
