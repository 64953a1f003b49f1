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

    /// The settings `options` makes (`-c name=value`, `-cname=value`, `--name=value`; words
    /// split at unescaped spaces, as the server splits them), in order, names in lower case
    /// with `-` as `_`, as the server reads them.
    static func settings(_ options: String) -> [(name: String, value: String)] {
        let words = words(options)
        var found: [(name: String, value: String)] = []
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
            found.append((setting[..<equals].replacing("-", with: "_").lowercased(), String(setting[setting.index(after: equals)...])))
        }
        return found
    }

    /// The value `options` last gives the setting `name`, if any.
    static func value(of name: String, in options: String) -> String? {
        settings(options).last { $0.name == name }?.value
    }

    /// The first schema of the last `search_path` set in `options`: unquoted names in lower
    /// case, as the server reads them.
    static func firstSchema(_ options: String) -> String? {
        value(of: "search_path", in: options).flatMap(firstName(inList:))
    }

    /// A `lock_timeout` value as the server reads it (a number of milliseconds, or with a
    /// unit: ms, s, min, h, d); nil for one it would refuse.
    static func duration(_ value: String) -> Duration? {
        let trimmed = value.trimmingPrefix(while: \.isWhitespace)
        let digits = trimmed.prefix { $0.isASCIIDigit }
        guard let number = Int(digits) else { return nil }
        let unit = String(trimmed.dropFirst(digits.count)).filter { !$0.isWhitespace }
        let scale: [String: Int] = ["": 1, "ms": 1, "s": 1000, "min": 60_000, "h": 3_600_000, "d": 86_400_000]
        guard let factor = scale[unit] else { return nil }
        let (milliseconds, overflow) = number.multipliedReportingOverflow(by: factor)
        return overflow ? nil : .milliseconds(milliseconds)
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
