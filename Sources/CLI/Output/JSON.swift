// A small JSON reader and writer. It deliberately avoids Foundation so that the
// CLI does not pay Foundation's start-up cost just to read or write a document.

/// One JSON value: what `JSONValue.parse` returns and what `rendered` writes.
///
/// `.int` and `.double` are different values even when numerically equal, so that a
/// parse-render round trip gives back exactly what was read.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number literal with no fraction or exponent that fits in `Int` (so `-0` is `.int(0)`).
    case int(Int)
    /// Any other number; never infinite or NaN when it comes from the parser.
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Members in document order; duplicate keys are kept, as the parser found them.
    case object([(key: String, value: JSONValue)])

    /// Structural equality; object members must match in order (it is a document, not a dictionary).
    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The value of the first member named `key`, or `nil` when missing or when this is not an object.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The kind of value with its article ("a number", "an object"), for error messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Why a document is not JSON, and at which byte offset the problem was found.
struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Offset into the input, in `0...input.count` (the count means "at the end").
    let offset: Int
    let reason: String

    init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    var description: String { "byte \(offset): \(reason)" }
}

// MARK: - Parsing

extension JSONValue {
    /// Deepest nesting of arrays and objects that `parse` accepts.
    static let maximumDepth = 512

    /// Parses one complete RFC 8259 document (UTF-8, optional surrounding whitespace).
    ///
    /// Runs in linear time without recursion, so no input can overflow the stack.
    static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let parse = { (buffer: UnsafeBufferPointer<UInt8>) in
            Result { () throws(JSONParseError) -> JSONValue in
                var parser = JSONParser(bytes: buffer)
                return try parser.parseDocument()
            }
        }
        let result = bytes.withContiguousStorageIfAvailable(parse)
            ?? Array(bytes).withUnsafeBufferPointer(parse)
        return try result.get()
    }
}

/// The state of one `JSONValue.parse` call over borrowed bytes.
private struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    /// An array or object whose closing bracket has not been read yet.
    struct OpenContainer {
        let isObject: Bool
        var elements: [JSONValue] = []
        var members: [(key: String, value: JSONValue)] = []
        var key = ""  // the object key whose value is being read
    }

    var next: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Reads values in a loop with an explicit stack of open containers rather than by recursion.
    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        var open: [OpenContainer] = []
        readValue: while true {
            skipWhitespace()
            guard let first = next else { throw endOfInput() }
            var value: JSONValue
            switch first {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                guard open.count < JSONValue.maximumDepth else {
                    throw JSONParseError(offset: index, reason: "nesting deeper than \(JSONValue.maximumDepth) levels")
                }
                let isObject = first == UInt8(ascii: "{")
                index += 1
                skipWhitespace()
                if next == UInt8(ascii: isObject ? "}" : "]") {
                    index += 1
                    value = isObject ? .object([]) : .array([])
                } else {
                    var container = OpenContainer(isObject: isObject)
                    if isObject { container.key = try readKey() }
                    open.append(container)
                    continue readValue
                }
            case UInt8(ascii: "\""): value = .string(try readString())
            case UInt8(ascii: "t"): try readLiteral("true"); value = .bool(true)
            case UInt8(ascii: "f"): try readLiteral("false"); value = .bool(false)
            case UInt8(ascii: "n"): try readLiteral("null"); value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = try readNumber()
            default: throw JSONParseError(offset: index, reason: "expected a value, found \(describe(first))")
            }
            // Hand the finished value to the innermost container, closing each container whose end follows.
            while !open.isEmpty {
                let last = open.count - 1
                skipWhitespace()
                if open[last].isObject {
                    let key = open[last].key
                    open[last].members.append((key, value))  // in place: the stack owns the only copy
                    if next == UInt8(ascii: ",") {
                        index += 1
                        open[last].key = try readKey()
                        continue readValue
                    }
                    guard next == UInt8(ascii: "}") else { throw expected("',' or '}' after an object member") }
                    value = .object(open.removeLast().members)
                } else {
                    open[last].elements.append(value)
                    if next == UInt8(ascii: ",") {
                        index += 1
                        continue readValue
                    }
                    guard next == UInt8(ascii: "]") else { throw expected("',' or ']' after an array element") }
                    value = .array(open.removeLast().elements)
                }
                index += 1
            }
            skipWhitespace()
            guard let extra = next else { return value }
            throw JSONParseError(offset: index, reason: "unexpected \(describe(extra)) after the value")
        }
    }

    mutating func skipWhitespace() {
        while let byte = next, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    func endOfInput() -> JSONParseError {
        JSONParseError(offset: bytes.count, reason: "unexpected end of input")
    }

    /// The error for a missing `what` at `index`; running out of input is the more useful diagnosis.
    func expected(_ what: String) -> JSONParseError {
        index == bytes.count ? endOfInput() : JSONParseError(offset: index, reason: "expected \(what)")
    }

    /// Reads `"key"` and the colon after it.
    mutating func readKey() throws(JSONParseError) -> String {
        skipWhitespace()
        guard next == UInt8(ascii: "\"") else { throw expected("a string as the object key") }
        let key = try readString()
        skipWhitespace()
        guard next == UInt8(ascii: ":") else { throw expected("':' after an object key") }
        index += 1
        return key
    }

    mutating func readLiteral(_ word: StaticString) throws(JSONParseError) {
        let start = index
        for byte in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
            guard let actual = next else { throw endOfInput() }
            guard actual == byte else { throw JSONParseError(offset: start, reason: "expected '\(word)'") }
            index += 1
        }
    }

    /// Reads a number per the RFC grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func readNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        if next == UInt8(ascii: "-") { index += 1 }
        if next == UInt8(ascii: "0") {
            index += 1
            if let digit = next, isDigit(digit) {
                throw JSONParseError(offset: index - 1, reason: "leading zero in a number")
            }
        } else {
            try readDigits(after: "'-'")
        }
        var isInteger = true
        if next == UInt8(ascii: ".") {
            index += 1
            isInteger = false
            try readDigits(after: "'.'")
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            index += 1
            isInteger = false
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { index += 1 }
            try readDigits(after: "the exponent mark")
        }
        // Short ASCII strings are stored inline, so this allocates nothing.
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let integer = Int(text) { return .int(integer) }
        // RFC 8259 lets a parser limit the range; rejecting infinity keeps every parsed value renderable.
        guard let double = Double(text), double.isFinite else {
            throw JSONParseError(offset: start, reason: "number out of range")
        }
        return .double(double)
    }

    mutating func readDigits(after what: String) throws(JSONParseError) {
        guard let digit = next, isDigit(digit) else { throw expected("a digit after \(what)") }
        while let digit = next, isDigit(digit) { index += 1 }
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Reads a string starting at its opening quote, validating UTF-8 and decoding escapes.
    mutating func readString() throws(JSONParseError) -> String {
        let opening = index
        index += 1
        var runStart = index  // bytes from here to `index` are copied verbatim
        var decoded: [UInt8] = []  // stays empty until the first escape, which always adds bytes
        while let byte = next {
            switch byte {
            case UInt8(ascii: "\""):
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
                index += 1
                if decoded.isEmpty { return String(decoding: run, as: UTF8.self) }
                decoded.append(contentsOf: run)
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\") where index + 1 < bytes.count:
                decoded.append(contentsOf: bytes[runStart..<index])
                try readEscape(into: &decoded)
                runStart = index
            case 0..<0x20:
                throw JSONParseError(offset: index, reason: "control character U+\(hex(byte, digits: 4)) in a string")
            case 0..<0x80:
                index += 1  // includes a backslash that is the last byte: the string is unterminated
            default:
                try skipUTF8Sequence()
            }
        }
        throw JSONParseError(offset: opening, reason: "unterminated string")
    }

    /// Decodes the escape at `index` (a backslash with at least one byte after it).
    mutating func readEscape(into decoded: inout [UInt8]) throws(JSONParseError) {
        let backslash = index
        let letter = bytes[index + 1]
        index += 2
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(letter)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHexEscape(at: backslash)
            // A high surrogate counts only when an escaped low surrogate follows at once.
            if 0xD800...0xDBFF ~= scalar, bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) {
                index += 2
                let low = try readHexEscape(at: index - 2)
                if 0xDC00...0xDFFF ~= low { scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00) }
            }
            // Any surrogate still here is unpaired, and `Unicode.Scalar` refuses surrogates.
            guard let unicode = Unicode.Scalar(scalar) else {
                throw JSONParseError(offset: backslash, reason: "unpaired surrogate U+\(hex(scalar, digits: 4))")
            }
            decoded.append(contentsOf: unicode.utf8)
        default:
            let shown = describe(letter)
            throw JSONParseError(offset: backslash, reason: shown.hasPrefix("'")
                ? "invalid escape \\\(Character(Unicode.Scalar(letter)))"
                : "invalid escape: '\\' followed by \(shown)")
        }
    }

    /// Reads the four hex digits at `index` of the `\u` escape that starts at `escape`.
    mutating func readHexEscape(at escape: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let digit: UInt8
            switch next {
            case let byte? where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case let byte? where byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case let byte? where byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONParseError(offset: escape, reason: "expected 4 hex digits after \\u")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Steps over one well-formed multi-byte UTF-8 sequence starting at `index`.
    mutating func skipUTF8Sequence() throws(JSONParseError) {
        // The second byte's range is what excludes overlong forms, surrogates and values above U+10FFFF.
        let length: Int, second: ClosedRange<UInt8>
        switch bytes[index] {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: throw JSONParseError(offset: index, reason: "invalid UTF-8")
        }
        guard index + length <= bytes.count, second ~= bytes[index + 1],
              bytes[index + 2..<index + length].allSatisfy({ 0x80...0xBF ~= $0 })
        else { throw JSONParseError(offset: index, reason: "invalid UTF-8") }
        index += length
    }

    /// A byte as quoted text when printable ASCII, otherwise in hex.
    func describe(_ byte: UInt8) -> String {
        0x20..<0x7F ~= byte ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(hex(byte, digits: 2))"
    }
}

/// Upper-case hex, zero-padded to `digits`.
private func hex(_ value: some BinaryInteger, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
}

// MARK: - Rendering

extension JSONValue {
    /// The value as JSON text: compact with no spaces, or `pretty` with 2-space indents and no final newline.
    ///
    /// Non-ASCII text is written as raw UTF-8; non-finite doubles, which JSON cannot express, become `null`.
    func rendered(pretty: Bool = false) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(128)  // most documents are a journal row's few members: one allocation
        render(into: &output, pretty: pretty, depth: 0)
        return String(decoding: output, as: UTF8.self)
    }

    private func render(into output: inout [UInt8], pretty: Bool, depth: Int) {
        switch self {
        case .null: output += "null".utf8
        case .bool(let value): output += (value ? "true" : "false").utf8
        case .int(let value): output += String(value).utf8
        case .double(let value): output += (value.isFinite ? value.description : "null").utf8
        case .string(let value): Self.render(string: value, into: &output)
        case .array(let elements):
            Self.renderContainer(elements.count, ("[", "]"), into: &output, pretty: pretty, depth: depth) { output, position in
                elements[position].render(into: &output, pretty: pretty, depth: depth + 1)
            }
        case .object(let members):
            Self.renderContainer(members.count, ("{", "}"), into: &output, pretty: pretty, depth: depth) { output, position in
                Self.render(string: members[position].key, into: &output)
                output += (pretty ? ": " : ":").utf8
                members[position].value.render(into: &output, pretty: pretty, depth: depth + 1)
            }
        }
    }

    /// Writes the brackets around `count` items, each on its own indented line when `pretty`.
    private static func renderContainer(
        _ count: Int, _ brackets: (Unicode.Scalar, Unicode.Scalar), into output: inout [UInt8],
        pretty: Bool, depth: Int, item: (inout [UInt8], Int) -> Void
    ) {
        output.append(UInt8(ascii: brackets.0))
        for position in 0..<count {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            newline(into: &output, pretty: pretty, depth: depth + 1)
            item(&output, position)
        }
        if count > 0 { newline(into: &output, pretty: pretty, depth: depth) }  // empty stays "[]" / "{}"
        output.append(UInt8(ascii: brackets.1))
    }

    private static func newline(into output: inout [UInt8], pretty: Bool, depth: Int) {
        guard pretty else { return }
        output.append(0x0A)
        output += repeatElement(UInt8(ascii: " "), count: 2 * depth)
    }

    /// Writes a quoted string, escaping what JSON requires (quote, backslash, C0 controls) and
    /// what would act on a terminal the JSON is printed to or hide itself there: DEL, C1
    /// controls, format characters (bidirectional controls, zero-width characters, tag
    /// characters), the line and paragraph separators and other default-ignorable
    /// characters. Any JSON reader gives back the same text.
    private static func render(string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for scalar in string.unicodeScalars {
            let value = scalar.value
            switch value {
            case 0x22, 0x5C: output += [UInt8(ascii: "\\"), UInt8(value)]
            case 0x08: output += "\\b".utf8
            case 0x0C: output += "\\f".utf8
            case 0x0A: output += "\\n".utf8
            case 0x0D: output += "\\r".utf8
            case 0x09: output += "\\t".utf8
            case 0..<0x20, 0x7F: appendEscape(value, into: &output)
            case 0x20..<0x7F: output.append(UInt8(value))
            default:
                if actsOnATerminal(scalar) {
                    // Beyond the first plane, JSON spells a scalar as its UTF-16 surrogate pair.
                    for unit in scalar.utf16 { appendEscape(UInt32(unit), into: &output) }
                } else {
                    output += scalar.utf8
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(_ unit: UInt32, into output: inout [UInt8]) {
        output += "\\u\(hex(unit, digits: 4).lowercased())".utf8
    }

    private static func actsOnATerminal(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default:
            let variationSelector = (0xFE00...0xFE0F).contains(scalar.value) || (0xE0100...0xE01EF).contains(scalar.value)
            return properties.isDefaultIgnorableCodePoint && !variationSelector
        }
    }
}
