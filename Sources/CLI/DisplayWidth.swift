/// How many terminal columns `text` takes: 2 for Hangul, CJK, fullwidth forms and
/// emoji, 0 for combining marks and invisible format characters, 1 otherwise.
///
/// Counted per grapheme cluster, so a ZWJ emoji family, a flag or a decomposed Hangul
/// syllable each count once. A close, small approximation of `wcwidth`, enough to align
/// the columns of `list`.
func displayWidth(_ text: String) -> Int {
    text.reduce(0) { $0 + displayWidth(of: $1) }
}

func displayWidth(of character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if scalars.contains(where: { $0.properties.isEmojiPresentation }) { return 2 }
    // U+FE0F asks for the emoji form of a text-default character such as ❤ or 1 (keycap).
    if first.properties.isEmoji, scalars.contains("\u{FE0F}") { return 2 }
    switch first.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control: return 0
    default: return isWide(first.value) ? 2 : 1
    }
}

/// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt, W and F), in short.
private func isWide(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100...0x115F,  // Hangul Jamo leading consonants
         0x2329...0x232A,
         0x2E80...0x303E,  // CJK radicals, punctuation
         0x3041...0x33FF,  // kana, CJK symbols
         0x3400...0x4DBF, 0x4E00...0x9FFF,  // CJK ideographs
         0xA000...0xA4CF,  // Yi
         0xA960...0xA97F,  // Hangul Jamo extended A
         0xAC00...0xD7A3,  // Hangul syllables
         0xF900...0xFAFF,  // CJK compatibility ideographs
         0xFE10...0xFE19, 0xFE30...0xFE6F,  // vertical and small forms
         0xFF00...0xFF60, 0xFFE0...0xFFE6,  // fullwidth forms
         0x1F300...0x1F64F, 0x1F900...0x1F9FF,  // pictographs and emoji
         0x20000...0x2FFFD, 0x30000...0x3FFFD:  // CJK extensions
        return true
    default:
        return false
    }
}

/// `text` padded with spaces on the right to `width` columns.
func padded(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - displayWidth(text)))
}

/// `text` padded with spaces on the left to `width` columns.
func rightAligned(_ text: String, to width: Int) -> String {
    String(repeating: " ", count: max(0, width - displayWidth(text))) + text
}
