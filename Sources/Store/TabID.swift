/// A tab's identity: a random (version 4) UUID, fixed when the tab is made and kept
/// through every move, rename, remove and reopen, export and import, so that it names
/// the same tab in any database and on any device.
///
/// Written and read as the canonical lowercase text, `"0f8fad5b-d9cb-469f-a165-70867728950e"`,
/// which is also how the database stores it (TEXT: the same value in SQL, JSON and the
/// CLI's `--id`, without a conversion anywhere). Made without Foundation; with
/// `import TabStoreFoundation`, `TabID(uuid)` and `id.uuid` convert to and from `UUID`.
public struct TabID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible, LosslessStringConvertible {
    /// The canonical form: 32 lowercase hex digits in groups of 8-4-4-4-12.
    public let uuidString: String

    /// A new random id (122 random bits from the system's generator, version-4 bits set).
    public init() {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for _ in 0..<2 {
            let word: UInt64 = generator.next()
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        self.init(bytes: bytes)
    }

    /// The id `text` spells (any letter case), or `nil` when it is not a UUID's 8-4-4-4-12 hex form.
    public init?(_ text: String) {
        var text = text
        // Ids read back from the database are canonical already: check them in place and
        // keep the string (a set of 10,000 tabs reads 10,000 of them).
        let form: Form = text.withUTF8 { Self.form(of: $0) }
        switch form {
        case .canonical:
            uuidString = text
        case .upperCase:
            uuidString = String(decoding: text.utf8.map { (65...70).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
        case .invalid:
            return nil
        }
    }

    private enum Form { case canonical, upperCase, invalid }

    private static func form(of bytes: UnsafeBufferPointer<UInt8>) -> Form {
        guard bytes.count == 36 else { return .invalid }
        var form = Form.canonical
        for offset in 0..<36 {
            let byte = bytes[offset]
            switch offset {
            case 8, 13, 18, 23:
                if byte != UInt8(ascii: "-") { return .invalid }
            default:
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): break
                case UInt8(ascii: "A")...UInt8(ascii: "F"): form = .upperCase
                default: return .invalid
                }
            }
        }
        return form
    }

    /// The 16 bytes in canonical order.
    init(bytes: [UInt8]) {
        // Written straight into the string's storage: an import makes one per tab.
        uuidString = String(unsafeUninitializedCapacity: 36) { text in
            let hex: StaticString = "0123456789abcdef"
            var out = 0
            for (offset, byte) in bytes.enumerated() {
                if offset == 4 || offset == 6 || offset == 8 || offset == 10 {
                    text[out] = UInt8(ascii: "-")
                    out += 1
                }
                text[out] = hex.utf8Start[Int(byte >> 4)]
                text[out + 1] = hex.utf8Start[Int(byte & 0x0F)]
                out += 2
            }
            return out
        }
    }

    /// The id of a tab in a journal row written before tabs had ids (schema 6 and older):
    /// the nil UUID, all zeros, which no tab has.
    public static let unknown = TabID(bytes: Array(repeating: 0, count: 16))

    public var description: String { uuidString }

    public static func < (lhs: TabID, rhs: TabID) -> Bool { lhs.uuidString < rhs.uuidString }

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
