/// The startup packet's `options`: command-line switches for the server's session, split
/// at unescaped white space, a backslash escaping the next character.
enum StartupOptions {
    /// The words of `options`, unescaped.
    static func words(_ options: String) -> [String] {
        var words: [String] = []
        var word = ""
        var escaped = false
        for character in options {
            if escaped {
                word.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character.isWhitespace {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    /// `word` with white space and backslashes escaped, so the server reads it as one word.
    static func escaped(_ word: String) -> String {
        var result = ""
        for character in word {
            if character.isWhitespace || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// The first schema of the last `search_path` set in `options` (`-c search_path=a,b`,
    /// `-csearch_path=a`, `--search_path=a`; words split at unescaped spaces, as the server
    /// splits them): unquoted names in lower case, as the server reads them.
    static func firstSchema(_ options: String) -> String? {
        let words = words(options)
        var path: String?
        var index = 0
        while index < words.count {
            var setting: String?
            if words[index] == "-c", index + 1 < words.count {
                setting = words[index + 1]
                index += 1
            } else if words[index].hasPrefix("--") {
                setting = String(words[index].dropFirst(2))
            } else if words[index].hasPrefix("-c") {
                setting = String(words[index].dropFirst(2))
            }
            index += 1
            guard let setting, let equals = setting.firstIndex(of: "=") else { continue }
            if setting[..<equals].replacing("-", with: "_").lowercased() == "search_path" {
                path = String(setting[setting.index(after: equals)...])
            }
        }
        return path.flatMap(firstName(inList:))
    }

    /// The first name of a comma-separated list of identifiers, unquoted.
    private static func firstName(inList list: String) -> String? {
        var name = ""
        var quoted = false
        var wasQuoted = false
        var characters = Array(list)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" {
                        name.append("\"")
                        characters = characters.dropFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    name.append(character)
                }
            } else if character == "\"" {
                quoted = true
                wasQuoted = true
            } else if character == "," {
                break
            } else if !character.isWhitespace {
                name.append(character)
            }
        }
        guard !name.isEmpty else { return nil }
        return wasQuoted ? name : name.lowercased()
    }

}
