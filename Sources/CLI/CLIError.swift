import TabStoreKit

/// Every way a `tabstore` run can fail, with its exit code.
enum CLIError: Error {
    /// The command line does not match the declaration: exit 2.
    case usage(UsageError)
    /// The Store refused or failed: exit 1, or 3 for a database problem.
    case store(TabStoreError)
    /// No set or tab has the name as typed, which holds an escape of text output (`a\tb`):
    /// exit 1, saying how such a name is typed.
    case notFoundAsTyped(TabStoreError)
    /// No usable database path or folder: exit 3.
    case databasePath(ErrorMessage)
    /// An input file (import) cannot be read: exit 1.
    case unreadableInput(ErrorMessage)
    /// `info`'s check of a server database found rows that break the tab rules: exit 3.
    case checkFailed(database: String, findings: String)
    /// `info`'s check of a file's storage (SQLite's integrity_check) found it damaged: exit 3.
    case damaged(database: String, finding: String)
    /// The executable that serves server databases is missing or cannot be run: exit 3.
    case companionUnavailable(ErrorMessage)
    /// The system refused what the command needs (a file descriptor, a thread): exit 3.
    case resourceRefused(ErrorMessage)
    /// A sync failed after the server had settled `pushed` of the device's edits (the error
    /// speaks of the request that failed only), or on `server` (a damaged set, which the
    /// error names but not where it is). Its exit code is the error's.
    case syncFailed(TabStoreError, pushed: Int, server: String?)

    var exitCode: Int32 {
        switch self {
        case .usage: ExitCode.usage
        case .store(.cannotWrite): ExitCode.outputNotWritten
        case let .store(error), let .syncFailed(error, _, _): error.isDatabaseProblem ? ExitCode.database : ExitCode.requestFailed
        case .notFoundAsTyped: ExitCode.requestFailed
        case .databasePath: ExitCode.database
        case .unreadableInput: ExitCode.requestFailed
        case .checkFailed, .damaged: ExitCode.database
        case .companionUnavailable: ExitCode.database
        case .resourceRefused: ExitCode.database
        }
    }

    /// What was wrong: one line for a person (`shown`), or whole for JSON (`plain`).
    var message: ErrorMessage {
        switch self {
        case let .usage(error): error.message
        case let .store(error): error.message
        case let .notFoundAsTyped(error): "\(error.message); to type a name as text output shows it, add --escaped"
        case let .databasePath(message), let .unreadableInput(message), let .companionUnavailable(message),
             let .resourceRefused(message): message
        case let .checkFailed(database, findings): "the check of database \(database) found: \(findings)"
        case let .damaged(database, finding): "database \(database) is corrupt: \(finding)"
        case let .syncFailed(error, pushed, server):
            "\(pushed > 0 ? "pushed \(pushed) \(pushed == 1 ? "edit" : "edits"), then: " : "")\(server.map { "on server \($0): " } ?? "")\(error.message)"
        }
    }
}

enum ExitCode {
    static let success: Int32 = 0
    static let requestFailed: Int32 = 1
    static let usage: Int32 = 2
    static let database: Int32 = 3
    /// The command's output (standard output, or the file it writes) could not be written.
    static let outputNotWritten: Int32 = 4
}

/// Runs one Store call, turning its error into a `CLIError`.
func storeCall<T>(_ body: () throws(TabStoreError) -> T) throws(CLIError) -> T {
    do {
        return try body()
    } catch {
        throw .store(error)
    }
}
