/// A tab's identity: a random (version 4) UUID, fixed when the tab is made and kept
/// through every move, rename, remove and reopen, export and import, so that it names
/// the same tab in any database and on any device.
///
/// Written and read as the canonical lowercase text, `"0f8fad5b-d9cb-469f-a165-70867728950e"`,
/// which is also how the database stores it (TEXT: the same value in SQL, JSON and the
/// CLI's `--id`); held in memory as its 128 bits. Made without Foundation; with
/// `import TabStoreFoundation`, `TabID(uuid)` and `id.uuid` convert to and from `UUID`.
public struct TabID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible, LosslessStringConvertible {
    // The 128 bits, most significant first: compared, hashed and copied as two words (no
    // string to allocate, count references to or check for each id read).
    private let high: UInt64
    private let low: UInt64

    /// The canonical form: 32 lowercase hex digits in groups of 8-4-4-4-12.
    public var uuidString: String {
        String(unsafeUninitializedCapacity: Self.textLength) { writeText(into: $0.baseAddress!) }
    }

    /// How many bytes the canonical form has.
    static let textLength = 36

    /// The canonical form as a pattern of character classes, for a database to check
    /// stored ids with: SQLite's GLOB (`[0-9a-f]` for each digit) or a POSIX regular
    /// expression (the same, between `^` and `$`).
    package static let textPattern = [8, 4, 4, 4, 12].map { String(repeating: "[0-9a-f]", count: $0) }.joined(separator: "-")


    /// A new random id (122 random bits from the system's generator, version-4 bits set).
    public init() {
        var generator = SystemRandomNumberGenerator()
        let high: UInt64 = generator.next(), low: UInt64 = generator.next()
        self.high = (high & ~0xF000) | 0x4000  // version 4
        self.low = (low & ~(0xC << 60)) | (0x8 << 60)  // RFC 4122 variant
    }

    /// The id `text` spells (any letter case), or `nil` when it is not a UUID's 8-4-4-4-12 hex form.
    public init?(_ text: String) {
        var text = text
        guard let id = text.withUTF8({ TabID(utf8: $0) }) else { return nil }
        self = id
    }

    /// The id the UTF-8 `text` spells (any letter case), or `nil`: read in place from a
    /// database row, with no string made.
    init?(utf8 text: UnsafeBufferPointer<UInt8>) {
        guard text.count == Self.textLength, let bytes = text.baseAddress,
              bytes[8] == UInt8(ascii: "-"), bytes[13] == UInt8(ascii: "-"),
              bytes[18] == UInt8(ascii: "-"), bytes[23] == UInt8(ascii: "-")
        else { return nil }
        // Eight digits at a time: the groups are loaded as words, dashes left out.
        func load8(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: UnsafeRawPointer(bytes + offset).loadUnaligned(as: UInt64.self))
        }
        func load4(_ offset: Int) -> UInt64 {
            UInt64(UInt32(littleEndian: UnsafeRawPointer(bytes + offset).loadUnaligned(as: UInt32.self)))
        }
        guard let a = Self.value(ofHexDigits: load8(0)),
              let b = Self.value(ofHexDigits: load4(9) | load4(14) << 32),
              let c = Self.value(ofHexDigits: load4(19) | load4(24) << 32),
              let d = Self.value(ofHexDigits: load8(28))
        else { return nil }
        high = a << 32 | b
        low = c << 32 | d
    }

    /// The number eight hex digits spell (either case), the first in the word's lowest
    /// byte; nil when any byte is not a hex digit. All eight are checked and converted
    /// at once, within the word.
    private static func value(ofHexDigits word: UInt64) -> UInt64? {
        let ones: UInt64 = 0x0101_0101_0101_0101, tops = ones &* 0x80
        guard word & tops == 0 else { return nil }  // not ASCII
        // Per byte, 0x80 where `low < byte < high` (bytes below 0x80).
        func between(_ bytes: UInt64, _ low: UInt64, _ high: UInt64) -> UInt64 {
            let seven = bytes & (ones &* 0x7F)
            return ((ones &* (0x7F + high)) &- seven) & ~bytes & (seven &+ ones &* (0x7F - low)) & tops
        }
        let digits = between(word, 0x2F, 0x3A)
        let letters = between(word | (ones &* 0x20), 0x60, 0x67)
        guard digits | letters == tops else { return nil }
        // '0'-'9' are their low four bits; 'a'-'f' and 'A'-'F' those plus 9.
        var value = ((word & (ones &* 0x0F)) &+ (letters >> 7) &* 9).byteSwapped
        value = (value >> 4 | value) & 0x00FF_00FF_00FF_00FF
        value = (value >> 8 | value) & 0x0000_FFFF_0000_FFFF
        return (value >> 16 | value) & 0xFFFF_FFFF
    }

    /// The id of these 128 bits.
    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Writes the canonical form's 36 bytes at `text`; returns 36.
    func writeText(into text: UnsafeMutablePointer<UInt8>) -> Int {
        let raw = UnsafeMutableRawPointer(text)
        // Eight digits a word; a group of four is the first half of a word written a byte
        // further on, then overwritten from one byte earlier by that half alone.
        func eight(_ digits: UInt64, at offset: Int) {
            raw.storeBytes(of: digits, toByteOffset: offset, as: UInt64.self)
        }
        func firstFour(_ digits: UInt64, at offset: Int) {
            raw.storeBytes(of: UInt32(truncatingIfNeeded: UInt64(littleEndian: digits)).littleEndian, toByteOffset: offset, as: UInt32.self)
        }
        let a = Self.hexDigits(high >> 32), b = Self.hexDigits(high), c = Self.hexDigits(low >> 32), d = Self.hexDigits(low)
        eight(a, at: 0)
        eight(b, at: 10)
        firstFour(b, at: 9)
        eight(c, at: 20)
        firstFour(c, at: 19)
        eight(d, at: 28)
        (text[8], text[13], text[18], text[23]) = (UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "-"))
        return Self.textLength
    }

    /// The eight lowercase hex digits of `value`'s low 32 bits, as a word whose bytes in
    /// memory are the digits in order, all made at once within the word.
    private static func hexDigits(_ value: UInt64) -> UInt64 {
        // One nibble a byte, the most significant in the highest byte.
        var nibbles = value & 0xFFFF_FFFF
        nibbles = (nibbles | nibbles << 16) & 0x0000_FFFF_0000_FFFF
        nibbles = (nibbles | nibbles << 8) & 0x00FF_00FF_00FF_00FF
        nibbles = (nibbles | nibbles << 4) & 0x0F0F_0F0F_0F0F_0F0F
        // 0x01 in each byte of 10 or more, which becomes a letter: '0' + 10 + 39 is 'a'.
        let letters = ((nibbles &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        return (nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 39).bigEndian
    }

    /// The id of a tab in a journal row written before tabs had ids (schema 6 and older):
    /// the nil UUID, all zeros, which no tab has.
    public static let unknown = TabID(high: 0, low: 0)

    public var description: String { uuidString }

    /// The order of the canonical texts (lowercase hex sorts as the numbers it spells).
    public static func < (lhs: TabID, rhs: TabID) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }

    /// Decodes the text form; anything else is `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = TabID(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(quoted(text)) is not a tab id (a UUID)")
        }
        self = id
    }

    /// Encodes the canonical text form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(uuidString)
    }
}
