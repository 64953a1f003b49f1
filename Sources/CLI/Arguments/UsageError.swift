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

/// `text` with line breaks, tabs and other control characters written as escapes.
func escapingControlCharacters(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default:
            if scalar.properties.generalCategory == .control {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result
}
