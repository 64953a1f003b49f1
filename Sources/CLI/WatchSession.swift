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
    let changes: AsyncThrowingStream<TabChange, any Error>
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
        // Signals are taken by dispatch sources on the main queue, which is also where
        // lines are written: an exit can only fall between two whole lines.
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)  // else the default action kills the process first
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { exit(ExitCode.success) }
            source.resume()
            sources.append(source)
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
        withExtendedLifetime((store, sources)) { dispatchMain() }
    }
}
