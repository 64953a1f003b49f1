import Testing
@testable import TabStoreCLI

@Suite struct JSONTests {
    /// Parses UTF-8 text, for readability in the tests below.
    func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONValue.parse(text.utf8)
    }

    // MARK: Rendering

    static let sample: JSONValue = .object([
        ("a", .int(1)),
        ("b", .array([.bool(true), .null])),
        ("c", .object([])),
        ("d", .array([])),
        ("e", .object([("f", .string("홈 😀")), ("g", .double(1.5))])),
    ])

    @Test func compactRenderingHasNoSpaces() {
        #expect(Self.sample.rendered() == #"{"a":1,"b":[true,null],"c":{},"d":[],"e":{"f":"홈 😀","g":1.5}}"#)
    }

    @Test func prettyRenderingIndentsTwoSpacesWithoutFinalNewline() {
        #expect(Self.sample.rendered(pretty: true) == """
            {
              "a": 1,
              "b": [
                true,
                null
              ],
              "c": {},
              "d": [],
              "e": {
                "f": "홈 😀",
                "g": 1.5
              }
            }
            """)
    }

    @Test func stringsEscapeQuotesBackslashesAndWhatActsOnATerminal() {
        let value = JSONValue.string("\"\\/\u{8}\u{C}\n\r\t\u{0}\u{1}\u{1F}\u{7F}\u{9B}\u{202E}\u{2028}\u{200B}\u{E0041}홈😀e\u{301}\u{2764}\u{FE0F}")
        #expect(value.rendered() == #""\"\\/\b\f\n\r\t\u0000\u0001\u001f\u007f\u009b\u202e\u2028\u200b\udb40\udc41홈😀e\#u{301}\#u{2764}\#u{FE0F}""#)
    }

    /// Whatever text a string holds, its JSON holds no character that acts on a terminal
    /// or hides itself, and reads back as the same text.
    @Test func generatedTextRendersSafeAndReadsBack() throws {
        for text in VisibleTextTests.generated(count: 20_000, seed: 32) {
            let rendered = JSONValue.string(text).rendered()
            for scalar in rendered.unicodeScalars {
                let properties = scalar.properties
                switch properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator:
                    Issue.record("\(rendered) holds U+\(String(scalar.value, radix: 16))")
                default:
                    #expect(!properties.isDefaultIgnorableCodePoint || (0xFE00...0xFE0F).contains(scalar.value), "\(rendered)")
                }
            }
            guard case .string(let back) = try JSONValue.parse(rendered.utf8) else {
                Issue.record("\(rendered) is not a string")
                continue
            }
            #expect(Array(back.unicodeScalars) == Array(text.unicodeScalars), "\(rendered)")
        }
    }

    @Test func scalarsRenderAsJSONLiterals() {
        #expect(JSONValue.null.rendered() == "null")
        #expect(JSONValue.bool(false).rendered() == "false")
        #expect(JSONValue.int(Int.min).rendered() == "-9223372036854775808")
        #expect(JSONValue.double(1).rendered() == "1.0")
        #expect(JSONValue.double(-0.0).rendered() == "-0.0")
        #expect(JSONValue.double(1e-7).rendered() == "1e-07")
        #expect(JSONValue.double(.infinity).rendered() == "null")
        #expect(JSONValue.double(-.infinity).rendered() == "null")
        #expect(JSONValue.double(.nan).rendered(pretty: true) == "null")
    }

    // MARK: Round trips

    static let roundTripValues: [JSONValue] = [
        sample,
        .object([
            ("한국어", .string("홈 화면")),
            ("emoji", .array([.string("😀👍🏽"), .string("🇰🇷"), .string("e\u{301}")])),
            ("escapes", .string("quote \" backslash \\ slash / tab \t newline \n return \r")),
            ("controls", .string("\u{0}\u{1}\u{8}\u{C}\u{1B}\u{1F}\u{7F}")),
            ("numbers", .array([
                .int(0), .int(-1), .int(Int.max), .int(Int.min),
                .double(0.5), .double(-2.5e-300), .double(1e300), .double(1e16), .double(.leastNonzeroMagnitude), .double(1),
            ])),
            ("nested", .object([("a", .array([.array([]), .object([]), .array([.array([.null])])])), ("a", .null)])),
            ("", .bool(false)),
        ]),
        .string(""),
        .array([]),
        .int(42),
    ]

    @Test(arguments: roundTripValues)
    func parsingRenderedTextGivesBackTheValue(value: JSONValue) throws {
        #expect(try JSONValue.parse(value.rendered().utf8) == value)
        #expect(try JSONValue.parse(value.rendered(pretty: true).utf8) == value)
    }

    // MARK: Parsing

    @Test func surrogatePairDecodesToOneScalar() throws {
        #expect(try parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try parse(#""\uD83D\uDE00""#) == .string("😀"))
    }

    @Test func escapesDecode() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t\u0041\u00e9\uD55C\u0000""#) == .string("\"\\/\u{8}\u{C}\n\r\tAé한\u{0}"))
    }

    @Test func rawUTF8TextIsKept() throws {
        #expect(try parse(#"{"탭":"홈 😀"}"#) == .object([("탭", .string("홈 😀"))]))
    }

    @Test func integersThatFitStayInt() throws {
        #expect(try parse("0") == .int(0))
        #expect(try parse("9223372036854775807") == .int(Int.max))
        #expect(try parse("-9223372036854775808") == .int(Int.min))
    }

    @Test func integerOverflowBecomesDouble() throws {
        #expect(try parse("9223372036854775808") == .double(0x1p63))
        #expect(try parse("-9223372036854775809") == .double(-0x1p63))  // the nearest Double is -2^63
        #expect(try parse("100000000000000000000000") == .double(1e23))
    }

    @Test func negativeZeroIsAnIntegerLiteral() throws {
        #expect(try parse("-0") == .int(0))
        guard case .double(let double) = try parse("-0.0") else { Issue.record("not a double"); return }
        #expect(double == 0 && double.sign == .minus)
    }

    @Test func fractionOrExponentMakesADouble() throws {
        #expect(try parse("1e3") == .double(1000))
        #expect(try parse("1E+3") == .double(1000))
        #expect(try parse("-1.5e-3") == .double(-0.0015))
        #expect(try parse("1.0") == .double(1))
        #expect(try parse("1e-400") == .double(0))
    }

    @Test func surroundingWhitespaceIsAllowed() throws {
        #expect(try parse(" \t\n\r[ 1 ,\n2 ] \r\n") == .array([.int(1), .int(2)]))
        #expect(try parse("{ \"a\" : { } }") == .object([("a", .object([]))]))
    }

    @Test func duplicateKeysAreKeptInOrder() throws {
        let value = try parse(#"{"a":1,"b":2,"a":3}"#)
        #expect(value == .object([("a", .int(1)), ("b", .int(2)), ("a", .int(3))]))
        #expect(value["a"] == .int(1))
    }

    @Test func objectEqualityIsOrderSensitive() {
        #expect(JSONValue.object([("a", .int(1)), ("b", .int(2))]) != .object([("b", .int(2)), ("a", .int(1))]))
        #expect(JSONValue.object([("a", .int(1))]) != .object([("a", .int(1)), ("a", .int(1))]))
        #expect(JSONValue.int(1) != .double(1))
    }

    @Test func anyByteCollectionCanBeParsed() throws {
        let bytes = Array(#"[1,"홈"]"#.utf8)
        let expected = JSONValue.array([.int(1), .string("홈")])
        #expect(try JSONValue.parse(bytes) == expected)
        #expect(try JSONValue.parse(bytes[...]) == expected)
        #expect(try JSONValue.parse(bytes.lazy.map { $0 }) == expected)  // not contiguous: copied first
    }

    @Test func nestingUpTo512LevelsIsAccepted() throws {
        var value = try parse(String(repeating: "[", count: 512) + String(repeating: "]", count: 512))
        var depth = 0
        while case .array(let elements) = value {
            depth += 1
            value = elements.first ?? .null
        }
        #expect(depth == 512)
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        #expect(throws: JSONParseError(offset: 512, reason: "nesting deeper than 512 levels")) {
            try parse(String(repeating: "[", count: 100_000))
        }
        #expect(throws: JSONParseError(offset: 5 * 512, reason: "nesting deeper than 512 levels")) {
            try parse(String(repeating: #"{"a":"#, count: 100_000))
        }
    }

    @Test func documentOfHundredThousandElementsParses() throws {
        let count = 100_000
        let text = "[" + Array(repeating: #"{"k":"v\n"}"#, count: count).joined(separator: ",") + "]"
        guard case .array(let elements) = try parse(text) else { Issue.record("not an array"); return }
        #expect(elements.count == count)
        #expect(elements.last == .object([("k", .string("v\n"))]))
    }

    // MARK: Errors

    struct ErrorCase: Sendable, CustomTestStringConvertible {
        let input: [UInt8]
        let offset: Int
        let reason: String
        init(_ text: String, _ offset: Int, _ reason: String) { self.init(bytes: Array(text.utf8), offset, reason) }
        init(bytes: [UInt8], _ offset: Int, _ reason: String) { (input, self.offset, self.reason) = (bytes, offset, reason) }
        var testDescription: String { "\(input.map { String($0, radix: 16) }) → \(reason)" }
    }

    static let errorCases: [ErrorCase] = [
        ErrorCase("", 0, "unexpected end of input"),
        ErrorCase("  ", 2, "unexpected end of input"),
        ErrorCase("[1,", 3, "unexpected end of input"),
        ErrorCase(#"{"a""#, 4, "unexpected end of input"),
        ErrorCase("tru", 3, "unexpected end of input"),
        ErrorCase("5.", 2, "unexpected end of input"),
        ErrorCase(#"{"a":1 "b":2}"#, 7, "expected ',' or '}' after an object member"),
        ErrorCase("[1 2]", 3, "expected ',' or ']' after an array element"),
        ErrorCase(#"{"a" 1}"#, 5, "expected ':' after an object key"),
        ErrorCase("{1:2}", 1, "expected a string as the object key"),
        ErrorCase(#"{"a":1,}"#, 7, "expected a string as the object key"),
        ErrorCase("[1,]", 3, "expected a value, found ']'"),
        ErrorCase(#""abc"#, 0, "unterminated string"),
        ErrorCase(#"["ab\"#, 1, "unterminated string"),
        ErrorCase(#""a\qb""#, 2, #"invalid escape \q"#),
        ErrorCase(#""\'""#, 1, #"invalid escape \'"#),
        ErrorCase(bytes: [0x22, 0x5C, 0x01, 0x22], 1, #"invalid escape: '\' followed by byte 0x01"#),
        ErrorCase(#""\u12G4""#, 1, #"expected 4 hex digits after \u"#),
        ErrorCase(#""\u12""#, 1, #"expected 4 hex digits after \u"#),
        ErrorCase(#""\ud83d""#, 1, "unpaired surrogate U+D83D"),
        ErrorCase(#""\ude00\ud83d""#, 1, "unpaired surrogate U+DE00"),
        ErrorCase(#""x\ud83d\u0041""#, 2, "unpaired surrogate U+D83D"),
        ErrorCase(#""\ud83d\ud83d""#, 1, "unpaired surrogate U+D83D"),
        ErrorCase(#""\ud83dx""#, 1, "unpaired surrogate U+D83D"),
        ErrorCase(#""\ud83d\uZZZZ""#, 7, #"expected 4 hex digits after \u"#),
        ErrorCase("\"a\nb\"", 2, "control character U+000A in a string"),
        ErrorCase("\"\t\"", 1, "control character U+0009 in a string"),
        ErrorCase(bytes: [0x22, 0x00, 0x22], 1, "control character U+0000 in a string"),
        ErrorCase(bytes: [0x22, 0xFF, 0x22], 1, "invalid UTF-8"),
        ErrorCase(bytes: [0x22, 0xC0, 0x80, 0x22], 1, "invalid UTF-8"),  // overlong NUL
        ErrorCase(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], 1, "invalid UTF-8"),  // encoded surrogate
        ErrorCase(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1, "invalid UTF-8"),  // above U+10FFFF
        ErrorCase(bytes: [0x22, 0x41, 0xE2, 0x82, 0x22], 2, "invalid UTF-8"),  // truncated sequence
        ErrorCase(bytes: [0x22, 0xE2, 0x82], 1, "invalid UTF-8"),  // truncated by the end of input
        ErrorCase(bytes: [0xFF], 0, "expected a value, found byte 0xFF"),
        ErrorCase(String(repeating: "[", count: 513), 512, "nesting deeper than 512 levels"),
        ErrorCase(String(repeating: "[", count: 513) + String(repeating: "]", count: 513), 512, "nesting deeper than 512 levels"),
        ErrorCase("1 x", 2, "unexpected 'x' after the value"),
        ErrorCase("[1]]", 3, "unexpected ']' after the value"),
        ErrorCase("{} {}", 3, "unexpected '{' after the value"),
        ErrorCase("1 é", 2, "unexpected byte 0xC3 after the value"),
        ErrorCase("trueX", 4, "unexpected 'X' after the value"),
        ErrorCase("01", 0, "leading zero in a number"),
        ErrorCase("-012", 1, "leading zero in a number"),
        ErrorCase("+1", 0, "expected a value, found '+'"),
        ErrorCase(".5", 0, "expected a value, found '.'"),
        ErrorCase("[5.]", 3, "expected a digit after '.'"),
        ErrorCase("[1e]", 3, "expected a digit after the exponent mark"),
        ErrorCase("[1e+]", 4, "expected a digit after the exponent mark"),
        ErrorCase("-", 1, "unexpected end of input"),
        ErrorCase("-Infinity", 1, "expected a digit after '-'"),
        ErrorCase("NaN", 0, "expected a value, found 'N'"),
        ErrorCase("Infinity", 0, "expected a value, found 'I'"),
        ErrorCase("1e400", 0, "number out of range"),
        ErrorCase("[-1e400]", 1, "number out of range"),
        ErrorCase("trUe", 0, "expected 'true'"),
        ErrorCase("[nul]", 1, "expected 'null'"),
        ErrorCase("'a'", 0, "expected a value, found '''"),
    ]

    @Test(arguments: errorCases)
    func malformedInputReportsOffsetAndReason(_ errorCase: ErrorCase) {
        #expect(throws: JSONParseError(offset: errorCase.offset, reason: errorCase.reason)) {
            try JSONValue.parse(errorCase.input)
        }
    }

    @Test func errorDescriptionNamesTheByteOffset() {
        #expect(JSONParseError(offset: 3, reason: "unexpected end of input").description == "byte 3: unexpected end of input")
    }

    // MARK: Reading documents

    @Test func subscriptFindsTheFirstMemberOrNil() throws {
        let value = try parse(#"{"name":"a","tabs":[],"name":"b"}"#)
        #expect(value["name"] == .string("a"))
        #expect(value["tabs"] == .array([]))
        #expect(value["missing"] == nil)
        #expect(JSONValue.array([]) ["name"] == nil)
        #expect(JSONValue.string("name")["name"] == nil)
    }

    @Test func typeNamesReadAsPhrases() {
        let values: [JSONValue] = [.null, .bool(true), .int(1), .double(1), .string(""), .array([]), .object([])]
        #expect(values.map(\.typeName) == ["null", "a boolean", "a number", "a number", "a string", "an array", "an object"])
    }
}
