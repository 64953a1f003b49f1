import TabStoreKit

/// A command line that does not match the declaration (exit code 2).
struct UsageError: Error, Sendable, Equatable {
    /// One line, in the style of swift-argument-parser: `Missing expected argument '<tab>'`.
    let message: String
    /// The command whose usage line goes with the message; `nil` for the root.
    let command: String?
}

/// `'text'` for an error message, with control characters escaped so it stays on one line.
func shown(_ text: String) -> String {
    "'" + escapingControlCharacters(text) + "'"
}

