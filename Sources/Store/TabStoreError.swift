/// Every way a `TabStore` call can fail. A failed call changes nothing.
///
/// Match on ``code`` to react, for example
/// `catch let error as TabStoreError where error.code == .busy`; `description` is a
/// sentence for a person, ``isDatabaseProblem`` says whether the request or the
/// database is at fault, and the details (``setName``, ``title``, ``index``,
/// ``tabCount``, ``server``, ``secondsWaited``) are there for the codes that carry them:
/// each is `nil` for a code that does not carry it.
///
/// New codes may come in later versions, in both groups (a request that cannot be done,
/// and a problem with the database or its server): a `switch` on ``code`` ends with a
/// `default` that uses ``isDatabaseProblem`` and `description`.
public struct TabStoreError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// What went wrong, with its details (every code is in TabStoreError+Codes.swift).
    package let reason: Reason

    /// `throw TabStoreError(.setNotFound(set: name))`.
    package init(_ reason: Reason) {
        self.reason = reason
    }

    /// What went wrong, to match on: `catch let error as TabStoreError where error.code == .busy`.
    public var code: Code { reason.entry.code }
    /// True for problems with the database file rather than with the request.
    public var isDatabaseProblem: Bool { reason.entry.isDatabaseProblem }

    /// The message for a person: names and paths made visible (control and invisible
    /// characters as escapes), long names shortened, so that it stays one line that acts
    /// on no terminal.
    public var description: String { message.shown }

    /// The message in parts, to be written for a person (`shown`) or, names and paths
    /// whole and as they are, in JSON (`plain`).
    public var message: ErrorMessage { reason.entry.message }

    /// The set the error is about: the set looked in, the set that exists or does not, the name refused.
    public var setName: String? { reason.entry.setName }
    /// The tab title named: one not found, already in the set, given twice, or refused (``Code/invalidTitle``).
    public var title: String? { reason.entry.title }
    /// The index or offset that was out of range, as the call gave it (not for one typed as text).
    public var index: Int? { reason.entry.index }
    /// How many tabs the set had when an index or offset was out of range (each out-of-range code).
    public var tabCount: Int? { reason.entry.tabCount }
    /// The PostgreSQL server that could not serve the call, as `postgresql://user@host:port/database` (no password).
    public var server: String? { reason.entry.server }
    /// How long the server was waited for before it was given up on (``Code/serverNotAnswering``), in seconds.
    public var secondsWaited: Int? { reason.entry.secondsWaited }

    /// The database refused the data itself (a constraint, a value or byte sequence it cannot
    /// hold), not the moment: the same write fails again however often it is tried.
    package var isDataError: Bool {
        switch reason {
        // SQLITE_TOOBIG, SQLITE_CONSTRAINT and SQLITE_MISMATCH, with their extended codes.
        case let .sqlite(_, code, _, _): [18, 19, 20].contains(code & 0xFF)
        // Data exceptions and integrity constraint violations.
        case let .server(_, sqlState, _, _): sqlState.hasPrefix("22") || sqlState.hasPrefix("23")
        default: false
        }
    }

    /// What went wrong, as a name that stays: new codes may come in later versions, so a
    /// `switch` on a code ends with a `default` (``TabStoreError/isDatabaseProblem`` and
    /// `description` say the rest).
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }
        public var description: String { rawValue }
        /// Whether `error` has this code, so that a code is a pattern:
        /// `catch TabStoreError.Code.busy`, or `case .busy:` in a `switch` on an error.
        public static func ~= (code: Code, error: TabStoreError) -> Bool {
            error.code == code
        }
    }
}
