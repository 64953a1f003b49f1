import TabStoreKit

/// A command line that does not match the declaration (exit code 2).
struct UsageError: Error, Sendable, Equatable {
    /// One line, in the style of swift-argument-parser: `Missing expected argument '<tab>'`.
    let message: ErrorMessage
    /// The command whose usage line goes with the message; `nil` for the root.
    let command: String?
}

/// `'text'` for an error message: made visible when shown to a person, as it is in JSON.
func shown(_ text: String) -> ErrorMessage.Name {
    ErrorMessage.Name(text, quote: "'")
}

