#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way out of the process for what a run prints: every byte of standard output
/// is written and checked, so `export > file` on a full disk is an error, not a torn file.
enum ProcessOutput {
    /// Prints `result` and exits with its code, or with `ExitCode.outputNotWritten` and one
    /// line on standard error when standard output did not take every byte.
    static func finish(_ result: RunResult, json: Bool) -> Never {
        let failure: Int32? = switch printStandardOutput(result.standardOutput) {
        case .written: closeStandardOutput()
        case .readerLeft: nil
        case let .failed(code): code
        }
        printStandardError(result.standardError)
        if let failure { failAfterOutput(failure, savedChange: result.savedChange, json: json) }
        exit(result.exitCode)
    }

    /// How a write to standard output ended.
    enum Written: Equatable {
        case written
        /// The reader went away (`| head -1`): it asked for no more, nothing to report.
        case readerLeft
        /// Not all written: the `errno`.
        case failed(Int32)
    }

    /// Writes `text` to standard output. SIGPIPE is ignored (`ignoreBrokenPipes()`), so a
    /// reader that left is EPIPE here, whatever the output's size.
    static func printStandardOutput(_ text: String) -> Written {
        guard !text.isEmpty else { return .written }
        guard let code = writeAll(Array(text.utf8), to: STDOUT_FILENO) else { return .written }
        return code == EPIPE ? .readerLeft : .failed(code)
    }

    /// A reader that leaves early is not an error, however much was left to print: with
    /// SIGPIPE at its default, output larger than the pipe's buffer killed the run (exit
    /// 141, a failure under `set -o pipefail`) where a smaller one exited 0.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Standard error is where failures are told: if it fails too, nothing is left to tell.
    static func printStandardError(_ text: String) {
        guard !text.isEmpty else { return }
        _ = writeAll(Array(text.utf8), to: STDERR_FILENO)
    }

    /// Closes standard output, the last chance for the file system to report that what
    /// was written did not reach the file (NFS, some FUSE file systems, report it here).
    /// - Returns: the `errno` of a failed close, `nil` when it closed or was closed.
    private static func closeStandardOutput() -> Int32? {
        if close(STDOUT_FILENO) == 0 { return nil }
        let code = errno
        return code == EBADF || code == EINTR || code == EPIPE ? nil : code
    }

    /// One line on standard error saying the output was not written, then exit.
    static func failAfterOutput(_ code: Int32, savedChange: Bool, json: Bool) -> Never {
        reportOutputFailure(code, savedChange: savedChange, json: json)
        exit(ExitCode.outputNotWritten)
    }

    /// Says on standard error that output could not be written (`code`: the errno).
    static func reportOutputFailure(_ code: Int32, savedChange: Bool, json: Bool) {
        let message = outputFailureMessage(code, savedChange: savedChange)
        let line = json
            ? JSONOutput.error(code: ExitCode.outputNotWritten, message: message).line
            : "tabstore: error: \(message)\n"
        _ = writeAll(Array(line.utf8), to: STDERR_FILENO)
    }
}

/// `cannot write output: No space left on device`, saying so when the change is saved
/// anyway: a caller must not retry a command that did its work.
func outputFailureMessage(_ code: Int32, savedChange: Bool) -> String {
    "cannot write output: \(errorMessage(code))" + (savedChange ? " (the change itself was saved)" : "")
}
