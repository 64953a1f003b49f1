// The one long-running part of the CLI: `watch` prints changes until a signal.
import Dispatch
import TabStoreKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `watch` in progress: the store it observes and the stream of that store's changes.
struct WatchSession: Sendable, Equatable {
    /// Kept for the whole run: the store's observers stop when it is released.
    let store: TabStore
    let changes: TabStoreStream<TabChange>
    /// The set watched, or `nil` for all sets; then each text line starts with the set's name.
    let setName: String?
    let json: Bool

    static func == (lhs: WatchSession, rhs: WatchSession) -> Bool {
        lhs.store === rhs.store && lhs.setName == rhs.setName && lhs.json == rhs.json
    }

    /// The line printed for one change, with its newline.
    func line(for change: TabChange) -> String {
        if json { return ChangeOutput.json(change, includingSet: true).line }
        let prefix = setName == nil ? escapingControlCharacters(change.setName) + "  " : ""
        return prefix + ChangeOutput.text(change) + "\n"
    }

    /// Prints `first` (the start notice), then one line per change as it comes, until
    /// SIGINT or SIGTERM; then exits 0. When the journal can no longer be read, says why
    /// and exits as that error's code says.
    func run(printingFirst first: RunResult) -> Never {
        // A signal's handler only writes a byte to a pipe; the main queue, where lines are
        // also written, reads it and exits: an exit can only fall between two whole lines.
        // The handlers are installed here, synchronously (a dispatch signal source is set
        // up later on another thread, and a signal sent in between was lost).
        // Without a pipe (no descriptors left) the signals keep their default action.
        let source = SignalPipe.install(for: [SIGINT, SIGTERM]).map { wakeUp in
            let source = DispatchSource.makeReadSource(fileDescriptor: wakeUp, queue: .main)
            source.setEventHandler { exit(ExitCode.success) }
            source.resume()
            return source
        }
        // Handlers first, notice second: whoever waits for the notice may signal at once.
        let json = self.json
        if let code = ProcessOutput.printStandardOutput(first.standardOutput) {
            ProcessOutput.failAfterOutput(code, savedChange: false, json: json)
        }
        ProcessOutput.printStandardError(first.standardError)
        let session = self
        Task { @MainActor in
            // write(2) straight away, no buffer: each line is out when the change is.
            do {
                for try await change in session.changes {
                    if let code = ProcessOutput.printStandardOutput(session.line(for: change)) {
                        ProcessOutput.failAfterOutput(code, savedChange: false, json: json)
                    }
                }
            } catch let error as TabStoreError {
                // The hub ends its streams only with the TabStoreError of a failed read.
                let failure = Runner.failure(.store(error), json: session.json, program: Program.spec)
                ProcessOutput.printStandardError(failure.standardError)
                exit(failure.exitCode)
            } catch {
                exit(ExitCode.database)
            }
            exit(ExitCode.success)
        }
        withExtendedLifetime((store, source)) { dispatchMain() }
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
        for number in signals {
            signal(number) { _ in
                var byte: UInt8 = 1
                _ = write(SignalPipe.writeEnd, &byte, 1)
            }
        }
        return ends[0]
    }
}
