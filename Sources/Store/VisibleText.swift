/// How text from a database, a command line or the environment is shown in text made for
/// a person (a terminal, a log): every character that would act on a terminal or hide
/// itself is written as a visible escape, and the escapes can be read back, so what is
/// shown names exactly one text.
///
/// The escapes are Swift's: `\n`, `\t`, `\r`, `\\` and `\u{1b}` (lowercase hex). Escaped are
/// - control characters: C0, DEL and C1 (U+0000-U+001F, U+007F-U+009F);
/// - format characters (bidirectional controls and marks, zero-width space, U+FEFF, tag
///   characters, ...), except a zero-width joiner or non-joiner between two emoji or
///   between two letters of a script that joins with them (Arabic, Indic, ...), where they
///   shape what is visible; the line and paragraph separators U+2028 and U+2029;
/// - other default-ignorable characters (Hangul fillers, U+034F), which draw nothing, but
///   not variation selectors after a character they can modify;
/// - a combining mark at the start or after an escape, which would draw on what stands
///   before it;
/// - in a text with nothing visible, every character but the space, so it does not show as
///   blank;
/// - a backslash, as `\\`, only where what follows would read as an escape: before `\`,
///   `n`, `t`, `r`, `u{` or an escaped character. Elsewhere (`C:\Users`, a lone `\`) it is
///   shown as it is, so ordinary text reads as typed.
///
/// For example:
/// ```swift
/// VisibleText.shown("a\tb")            // a\tb
/// VisibleText.shown(#"a\tb"#)          // a\\tb
/// VisibleText.shown("\u{1B}]0;x\u{7}") // \u{1b}]0;x\u{7}
/// VisibleText.original(of: #"a\tb"#)   // "a\tb" (with a TAB)
/// ```
package enum VisibleText {
    /// `text` as shown to a person.
    package static func shown(_ text: String) -> String {
        // Printable ASCII without a backslash, nearly every name: shown as it is.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x5C }) { return text }
        let scalars = Array(text.unicodeScalars)
        var escaped = [Bool](repeating: false, count: scalars.count)
        var visible = false
        for index in scalars.indices {
            let previous = index > 0 ? scalars[index - 1] : nil
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            escaped[index] = isHidden(scalars[index], after: previous, afterEscape: index > 0 && escaped[index - 1], before: next)
            if !escaped[index] && !scalars[index].properties.isWhitespace { visible = true }
        }
        if !visible {
            for index in scalars.indices where scalars[index] != " " { escaped[index] = true }
        }
        var result = ""
        result.unicodeScalars.reserveCapacity(scalars.count)
        for index in scalars.indices {
            let scalar = scalars[index]
            if escaped[index] {
                result += escape(scalar)
            } else if scalar == "\\" && index + 1 < scalars.count && startsEscape(scalars, at: index + 1, escaped: escaped[index + 1]) {
                result += "\\\\"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The text that `shown` shows as `text`: each escape read back, any other character
    /// (a backslash that starts no escape included) taken as it is. Reads what a person
    /// copies from a listing, so uppercase hex (`\u{1B}`) is read too.
    package static func original(of text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = ""
        var index = 0
        while index < scalars.count {
            if scalars[index] == "\\", let (scalar, length) = escapeSequence(in: scalars, at: index) {
                result.unicodeScalars.append(scalar)
                index += length
            } else {
                result.unicodeScalars.append(scalars[index])
                index += 1
            }
        }
        return result
    }

    /// Whether `text` holds an escape that ``original(of:)`` reads as another character
    /// (`a\tb` typed with a backslash): a name copied from shown output reads that way, so
    /// a lookup of it that finds nothing may have meant the original.
    package static func containsEscape(_ text: String) -> Bool {
        !sameBytes(original(of: text), text)
    }

    /// How many scalars of `text`, from `index`, an escape takes (`\t`: 2, `\u{1b}`: 6), or
    /// `nil` when none starts there: what a layout must not cut in half.
    package static func escapeLength(in text: [Unicode.Scalar], at index: Int) -> Int? {
        guard index < text.count, text[index] == "\\" else { return nil }
        return escapeSequence(in: text, at: index)?.length
    }

    /// Whether `scalar`, between `previous` and `next` of the same text, would act on a
    /// terminal, draw nothing or draw on something else.
    private static func isHidden(_ scalar: Unicode.Scalar, after previous: Unicode.Scalar?, afterEscape: Bool, before next: Unicode.Scalar?) -> Bool {
        // Printable ASCII, nearly every character of nearly every name: nothing to look up.
        if scalar.value >= 0x20 && scalar.value < 0x7F { return false }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator:
            return true
        case .format:
            if scalar.value == 0x200C || scalar.value == 0x200D, let previous, let next, !afterEscape {
                return !joins(previous, next)
            }
            return true
        case .nonspacingMark, .spacingMark, .enclosingMark:
            if previous == nil || afterEscape { return true }
            return properties.isDefaultIgnorableCodePoint && !isVariationSelector(scalar)
        default:
            if properties.isEmojiModifier { return previous == nil || afterEscape }
            return properties.isDefaultIgnorableCodePoint
        }
    }

    /// Whether a zero-width joiner or non-joiner between these two shapes what is drawn:
    /// in an emoji sequence (👩‍💻), or between letters of a script written with them.
    private static func joins(_ previous: Unicode.Scalar, _ next: Unicode.Scalar) -> Bool {
        let emojiBefore = (previous.properties.isEmoji && previous.value > 0x7F) || previous.value == 0xFE0F
            || previous.properties.isEmojiModifier
        if emojiBefore && next.properties.isEmoji && next.value > 0x7F { return true }
        return usesJoiners(previous) && usesJoiners(next)
    }

    /// A letter or mark of Arabic, Syriac, Thaana, N'Ko, the Indic scripts, Sinhala,
    /// Myanmar, Khmer or Mongolian, or an Arabic presentation form.
    private static func usesJoiners(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark:
            break
        default:
            return false
        }
        switch scalar.value {
        case 0x0600...0x08FF, 0x0900...0x0DFF, 0x1000...0x109F, 0x1780...0x18AF, 0xA8E0...0xA8FF,
             0xFB50...0xFDFF, 0xFE70...0xFEFC:
            return true
        default:
            return false
        }
    }

    private static func isVariationSelector(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xFE00...0xFE0F, 0xE0100...0xE01EF, 0x180B...0x180D, 0x180F: return true
        default: return false
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\t": return "\\t"
        case "\r": return "\\r"
        default: return "\\u{" + String(scalar.value, radix: 16) + "}"
        }
    }

    /// Whether what is shown from `index` on starts like an escape, so a backslash before
    /// it must be doubled. Says yes for `u{` whatever follows: doubling is always read back.
    private static func startsEscape(_ scalars: [Unicode.Scalar], at index: Int, escaped: Bool) -> Bool {
        if escaped { return true }
        switch scalars[index] {
        case "\\", "n", "t", "r": return true
        case "u": return index + 1 < scalars.count && scalars[index + 1] == "{"
        default: return false
        }
    }

    /// The character the escape at `index` (a backslash) stands for and the escape's length.
    private static func escapeSequence(in scalars: [Unicode.Scalar], at index: Int) -> (scalar: Unicode.Scalar, length: Int)? {
        guard index + 1 < scalars.count else { return nil }
        switch scalars[index + 1] {
        case "\\": return ("\\", 2)
        case "n": return ("\n", 2)
        case "t": return ("\t", 2)
        case "r": return ("\r", 2)
        case "u":
            guard index + 2 < scalars.count, scalars[index + 2] == "{" else { return nil }
            var value: UInt32 = 0
            var digits = 0
            var position = index + 3
            while position < scalars.count, scalars[position] != "}" {
                guard digits < 8, let digit = hexValue(scalars[position]) else { return nil }
                value = value << 4 | digit
                digits += 1
                position += 1
            }
            guard position < scalars.count, digits > 0, let scalar = Unicode.Scalar(value) else { return nil }
            return (scalar, position + 1 - index)
        default:
            return nil
        }
    }

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar.value {
        case 0x30...0x39: return scalar.value - 0x30
        case 0x41...0x46: return scalar.value - 0x41 + 10
        case 0x61...0x66: return scalar.value - 0x61 + 10
        default: return nil
        }
    }
}
