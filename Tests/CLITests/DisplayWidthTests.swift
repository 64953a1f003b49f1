import Testing
@testable import TabStoreCLI

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("", 0),
        ("Home", 4),
        ("All menu", 8),
        ("홈", 2),
        ("블로그", 6),
        ("iOS 앱 개발 알아가기", 20),
        ("\u{1112}\u{1161}\u{11AB}", 2),  // 한, decomposed into jamo: one cluster
        ("日本語", 6),
        ("ｶﾀｶﾅ", 4),  // halfwidth katakana
        ("ＡＢ", 4),  // fullwidth Latin
        ("🍕", 2),
        ("🍕 피자", 7),
        ("👨‍👩‍👧", 2),  // ZWJ family
        ("🇰🇷", 2),  // flag
        ("❤️", 2),  // text-default heart with VS16
        ("❤", 1),
        ("1️⃣", 2),  // keycap
        ("Cafe\u{301}", 4),  // combining acute
        ("a\u{200B}b", 2),  // zero-width space
    ])
    func columns(text: String, width: Int) {
        #expect(displayWidth(text) == width)
    }

    @Test func paddingUsesDisplayWidth() {
        #expect(padded("홈", to: 4) == "홈  ")
        #expect(rightAligned("7", to: 3) == "  7")
        #expect(padded("toolong", to: 3) == "toolong")
    }
}
