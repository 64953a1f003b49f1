import TabStoreKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGHUP, SIGINT and SIGTERM still end a run that writes a file (`backup`, `export
/// --output`), as they would, but first remove the temporary file it was writing: an
/// interrupted run leaves neither a torn FILE nor a `.FILE.tmp-PID` beside it. A signal
/// the parent set to be ignored (a background job's SIGINT, `nohup`'s SIGHUP) stays
/// ignored; one it left blocked (a process started from a thread that blocks signals
/// inherits its mask) is unblocked, so that SIGTERM ends the run instead of waiting forever.
///
/// These three are the ones sent to end a run: a closed terminal, Ctrl-C, `kill` and a
/// shutdown. SIGQUIT is left alone: it asks for a core dump of the process as it stands,
/// files included. SIGPIPE cannot come from writing a file, and SIGKILL cannot be caught.
enum TemporaryFileSignals {
    static func install() {
        // Reaches the pending-file record once here, so that the handler never is the first
        // to (its lazy initialization is not safe in a handler); nothing is pending yet.
        TabStore.removeFileBeingWritten()
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in [SIGHUP, SIGINT, SIGTERM] {
            sigaddset(&signals, number)
            let previous = signal(number) { number in
                TabStore.removeFileBeingWritten()
                signal(number, SIG_DFL)
                raise(number)
            }
            if unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                signal(number, SIG_IGN)
            }
        }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }
}
