/// The text a shell would pass for a word as typed: quotes removed, backslash escapes
/// applied. An unclosed quote runs to the end (the user is still typing).
///
/// Covers what people type while completing: `'...'`, `"..."` and `\x`; not `$'...'`
/// or expansions.
func unquotedShellWord(_ typed: String) -> String {
    var result = ""
    var quote: Character?
    var escaped = false
    for character in typed {
        if escaped {
            // Inside double quotes a backslash escapes only these; elsewhere it stays.
            if quote == "\"" && !"$`\"\\\n".contains(character) { result.append("\\") }
            result.append(character)
            escaped = false
        } else if character == "\\" && quote != "'" {
            escaped = true
        } else if let open = quote {
            if character == open { quote = nil } else { result.append(character) }
        } else if character == "'" || character == "\"" {
            quote = character
        } else {
            result.append(character)
        }
    }
    if escaped { result.append("\\") }
    return result
}

/// Where the quote that `typed` leaves open starts: the quote character and how much of
/// the word comes before it, unquoted. `nil` when every quote is closed.
///
/// Bash's line editor replaces only what follows an open quote: what it inserts must be
/// quoted for inside that quote.
func openQuote(in typed: String) -> (quote: Character, before: String)? {
    var quote: Character?
    var escaped = false
    var quoteStart = typed.startIndex
    for index in typed.indices {
        let character = typed[index]
        if escaped {
            escaped = false
        } else if character == "\\" && quote != "'" {
            escaped = true
        } else if let open = quote {
            if character == open { quote = nil }
        } else if character == "'" || character == "\"" {
            quote = character
            quoteStart = index
        }
    }
    guard let quote else { return nil }
    return (quote, unquotedShellWord(String(typed[..<quoteStart])))
}

/// `text` written to be read back as itself inside an open `quote`, to be followed by the
/// closing quote. Inside '...' only `'` needs care ('\'' ends the quote, adds one, opens
/// another); inside "..." `\`, `"`, `$` and a backquote take a backslash, and `!` (history
/// expansion, which a backslash does not stop there) goes in single quotes of its own.
func quotedInside(_ quote: Character, _ text: String) -> String {
    var result = ""
    for character in text {
        switch (quote, character) {
        case ("'", "'"): result += "'\\''"
        case ("\"", "\\"), ("\"", "\""), ("\"", "$"), ("\"", "`"): result += "\\" + String(character)
        case ("\"", "!"): result += "\"'!'\""
        default: result.append(character)
        }
    }
    return result
}
