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
        if let code = printStandardOutput(result.standardOutput) ?? closeStandardOutput() {
            printStandardError(result.standardError)
            failAfterOutput(code, savedChange: result.savedChange, json: json)
        }
        printStandardError(result.standardError)
        exit(result.exitCode)
    }

    /// Writes `text` to standard output.
    /// - Returns: the `errno` when it was not all written (a vanished reader excepted).
    static func printStandardOutput(_ text: String) -> Int32? {
        guard !text.isEmpty else { return nil }
        guard let code = writeAll(Array(text.utf8), to: STDOUT_FILENO) else { return nil }
        // The reader went away (`| head -1`): it asked for no more, nothing to report.
        // (With SIGPIPE at its default the process has already ended, silently.)
        return code == EPIPE ? nil : code
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
        let message = outputFailureMessage(code, savedChange: savedChange)
        let line = json
            ? JSONOutput.error(code: ExitCode.outputNotWritten, message: message).line
            : "tabstore: error: \(message)\n"
        _ = writeAll(Array(line.utf8), to: STDERR_FILENO)
        exit(ExitCode.outputNotWritten)
    }
}

/// `cannot write output: No space left on device`, saying so when the change is saved
/// anyway: a caller must not retry a command that did its work.
func outputFailureMessage(_ code: Int32, savedChange: Bool) -> String {
    "cannot write output: \(errorMessage(code))" + (savedChange ? " (the change itself was saved)" : "")
}
