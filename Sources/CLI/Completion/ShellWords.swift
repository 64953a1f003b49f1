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
