import Testing
@testable import TabStoreCLI
import TabStoreKit
import TabStoreTestSupport

/// The one rule by which every text output shows stored text: nothing that acts on a
/// terminal or hides itself gets through, and what is shown reads back as the text.
@Suite struct VisibleTextTests {
    /// Text a file written by another program can hold, and how it is shown.
    static let hostile: [(stored: String, shown: String)] = [
        ("\u{1B}]0;pwned\u{7}", #"\u{1b}]0;pwned\u{7}"#),
        ("\u{1B}]52;c;Y3VybCBldmlsIHwgc2g=\u{7}", #"\u{1b}]52;c;Y3VybCBldmlsIHwgc2g=\u{7}"#),
        ("a\r\n* 9  fake", #"a\r\n* 9  fake"#),
        ("\u{1B}[2J", #"\u{1b}[2J"#),
        ("x\u{9B}31m", #"x\u{9b}31m"#),
        ("a\u{7F}b", #"a\u{7f}b"#),
        ("a\u{0}b", #"a\u{0}b"#),
        ("abc\u{202E}fed", #"abc\u{202e}fed"#),
        ("\u{2066}x\u{2069}", #"\u{2066}x\u{2069}"#),
        ("pay\u{200B}pal", #"pay\u{200b}pal"#),
        ("\u{FEFF}bom", #"\u{feff}bom"#),
        ("l\u{2028}m", #"l\u{2028}m"#),
        ("a\tb", #"a\tb"#),
        ("\u{E0041}tag", #"\u{e0041}tag"#),
        // A backslash is doubled only where it would read as an escape.
        ("\\", #"\"#),
        (#"a\nb"#, #"a\\nb"#),
        (#"a\\b"#, #"a\\\b"#),
        ("\\\t", #"\\\t"#),
        (#"\u{1b}"#, #"\\u{1b}"#),
        (#"C:\Users\me"#, #"C:\Users\me"#),
        // Nothing visible: every character but the space is spelled out.
        ("\u{3000}", #"\u{3000}"#),
        ("\u{115F}", #"\u{115f}"#),
        // A combining mark with nothing of its own to draw on.
        ("\u{301}x", #"\u{301}x"#),
        ("\t\u{301}", #"\t\u{301}"#),
        ("a\u{200D}b", #"a\u{200d}b"#),
    ]

    /// Text shown as it is: ordinary names must not get uglier.
    static let ordinary = [
        "Home", "iOS 앱 개발 알아가기", "e\u{301}", "👩\u{200D}💻", "🏳\u{FE0F}\u{200D}🌈", "می\u{200C}خواهم", "क्\u{200D}ष",
        "東京\u{3000}大阪", "   ", "", "100%", "'; DROP TABLE tab; --", "back\\slash", "a\\", "❤\u{FE0F}",
    ]

    @Test(arguments: hostile)
    func hostileTextIsShownWithEscapes(stored: String, shown: String) {
        #expect(Array(VisibleText.shown(stored).unicodeScalars) == Array(shown.unicodeScalars))
        #expect(Array(VisibleText.original(of: shown).unicodeScalars) == Array(stored.unicodeScalars))
    }

    @Test(arguments: ordinary)
    func ordinaryTextIsShownAsItIs(text: String) {
        #expect(Array(VisibleText.shown(text).unicodeScalars) == Array(text.unicodeScalars))
    }

    @Test func readingBackTakesUppercaseHexAndLeavesWhatIsNoEscape() {
        #expect(VisibleText.original(of: #"\u{1B}\u{9b}"#).unicodeScalars.map(\.value) == [0x1B, 0x9B])
        #expect(VisibleText.original(of: #"\u{d800}\u{110000}\u{}\u{123456789}\x\"#) == #"\u{d800}\u{110000}\u{}\u{123456789}\x\"#)
    }

    /// Scalars a generated text is made of: the hostile, the ones an escape is spelled
    /// with, and ordinary letters, marks, emoji and spaces of several scripts.
    static let alphabet: [Unicode.Scalar] = [
        "\u{0}", "\u{1}", "\u{7}", "\u{8}", "\t", "\n", "\r", "\u{1B}", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}", "\u{9B}", "\u{9F}",
        "\u{AD}", "\u{34F}", "\u{61C}", "\u{115F}", "\u{180E}", "\u{200B}", "\u{200C}", "\u{200D}", "\u{200E}", "\u{200F}",
        "\u{2028}", "\u{2029}", "\u{202A}", "\u{202E}", "\u{2060}", "\u{2066}", "\u{2069}", "\u{3164}", "\u{FEFF}",
        "\u{FFF9}", "\u{E0001}", "\u{E0041}", "\u{E007F}",
        "\\", "u", "{", "}", "n", "t", "r", "1", "b", "f", "x", " ", "\"", "'", "a", "Z",
        "\u{301}", "\u{20DD}", "\u{FE0F}", "\u{1F3FB}", "\u{A0}", "\u{3000}", "é", "홈", "東", "م", "ی", "क", "्", "👩", "💻", "🏳",
    ]

    static func generated(count: Int, seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            var text = String.UnicodeScalarView()
            for _ in 0..<random.below(14) { text.append(alphabet[random.below(alphabet.count)]) }
            return String(text)
        }
    }

    @Test func generatedTextReadsBackAndShowsNothingHidden() {
        for text in Self.generated(count: 20_000, seed: 28) {
            let shown = VisibleText.shown(text)
            #expect(Array(VisibleText.original(of: shown).unicodeScalars) == Array(text.unicodeScalars), "\(shown)")
            let scalars = Array(shown.unicodeScalars)
            for (index, scalar) in scalars.enumerated() {
                let properties = scalar.properties
                switch properties.generalCategory {
                case .control, .lineSeparator, .paragraphSeparator:
                    Issue.record("\(shown) holds U+\(String(scalar.value, radix: 16))")
                case .format:
                    // Only a joiner, and only between two characters that are not ASCII.
                    let joined = (scalar == "\u{200C}" || scalar == "\u{200D}") && index > 0 && index + 1 < scalars.count
                        && scalars[index - 1].value > 0x7F && scalars[index + 1].value > 0x7F
                    #expect(joined, "\(shown) holds U+\(String(scalar.value, radix: 16))")
                default:
                    #expect(!properties.isBidiControl, "\(shown)")
                    // Only a variation selector, which modifies the character before it.
                    #expect(!properties.isDefaultIgnorableCodePoint || (0xFE00...0xFE0F).contains(scalar.value), "\(shown)")
                }
            }
            // Shown again, it is the same text made visible once more: escapes never collapse.
            #expect(Array(VisibleText.original(of: VisibleText.shown(shown)).unicodeScalars) == scalars)
        }
    }

    @Test func aMessageShowsNamesVisibleToAPersonAndWholeInJSON() {
        let error = TabStoreError(.tabNotFound(title: "x\u{1B}]0;t\u{7}", set: String(repeating: "s", count: 70) + "\t"))
        #expect(error.description == #"no tab titled "x\u{1b}]0;t\u{7}" in set ""# + String(repeating: "s", count: 60) + #"…""#)
        #expect(Array(error.message.plain.unicodeScalars)
            == Array(("no tab titled \"x\u{1B}]0;t\u{7}\" in set \"" + String(repeating: "s", count: 70) + "\t\"").unicodeScalars))
    }

    @Test func aShortenedTitleInTheTabBarNeverEndsInsideAnEscape() {
        let layout = TabBarLayout(titles: ["\u{1B}\u{1B}\u{1B}\u{1B}"], selectedIndex: 0, width: 20)
        #expect(layout.cells.map(\.title) == [#"\u{1b}\u{1b}…"#])
        #expect(layout.lines(.plain).first == #"  \u{1b}\u{1b}…"#)
    }
}
