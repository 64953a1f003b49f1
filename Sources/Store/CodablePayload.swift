/// Typed payloads: a `Codable` value of the app's kept as a tab's payload, one key per
/// property, so the stored form is the same `[String: String]` every backend, export and
/// the CLI's `set-data` already read. Flat values only (text, numbers, booleans, optionals
/// of them, and `RawRepresentable` enums of those), which is what a tab's route, icon or
/// badge needs; a nested value is refused, so nothing is stored that the CLI could not show.
///
/// For example:
/// ```swift
/// struct Route: Codable { var path: String; var icon: String; var badge: Int? }
/// try store.add([try NewTab("Home", payload: Route(path: "/home", icon: "house"))], to: "main", creatingSet: true)
/// let route = try store.tabSet(named: "main").tabs[0].payload(as: Route.self)
/// ```
extension Tab {
    /// The tab's payload read as `type`.
    ///
    /// - Throws: `TabStoreError.Code.invalidPayload` naming the key that is missing or does not
    ///   hold a value of its property's type.
    public func payload<Payload: Decodable>(as type: Payload.Type) throws(TabStoreError) -> Payload {
        try decodePayload(type, from: payload)
    }
}

extension NewTab {
    /// A tab to add whose payload is `payload`, one key per property.
    ///
    /// - Throws: `TabStoreError.Code.invalidPayload` for a value that is not flat;
    ///   `.payloadTooLarge` over ``TabStore/payloadLimit``.
    public init<Payload: Encodable>(_ title: String, payload: Payload) throws(TabStoreError) {
        self.init(title, payload: try encodePayload(payload))
    }
}

extension TabStore {
    /// Replaces a tab's payload with `payload`, one key per property; as
    /// ``setPayload(_:for:in:ifRevision:)-3xy1g`` does with a dictionary.
    ///
    /// - Throws: `TabStoreError.Code.invalidPayload` for a value that is not flat, or what the
    ///   dictionary form throws.
    @discardableResult
    public func setPayload<Payload: Encodable>(
        _ payload: Payload, for ref: TabRef, in setName: String, ifRevision: Int? = nil
    ) throws(TabStoreError) -> TabSetEdit {
        try setPayload(try encodePayload(payload), for: ref, in: setName, ifRevision: ifRevision)
    }
}

/// `value` as a payload, checked against the payload rules.
func encodePayload<Payload: Encodable>(_ value: Payload) throws(TabStoreError) -> [String: String] {
    let encoder = PayloadEncoder()
    do {
        try value.encode(to: encoder)
    } catch let error as PayloadCodingError {
        throw TabStoreError(.invalidPayload(reason: error.reason))
    } catch {
        throw TabStoreError(.invalidPayload(reason: String(describing: error)))
    }
    try validPayload(encoder.storage.entries)
    return encoder.storage.entries
}

func decodePayload<Payload: Decodable>(_ type: Payload.Type, from payload: [String: String]) throws(TabStoreError) -> Payload {
    do {
        return try Payload(from: PayloadDecoder(entries: payload))
    } catch let error as PayloadCodingError {
        throw TabStoreError(.invalidPayload(reason: error.reason))
    } catch {
        throw TabStoreError(.invalidPayload(reason: String(describing: error)))
    }
}

/// Why a value cannot be a payload, or a payload cannot be read as a value.
struct PayloadCodingError: Error {
    let reason: String
}

/// What an encoding collects; shared by the encoder and its one container.
final class PayloadStorage {
    var entries: [String: String] = [:]
}

struct PayloadEncoder: Encoder {
    let storage = PayloadStorage()
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(PayloadKeyedEncoder<Key>(storage: storage))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        FailingEncoder(reason: "a payload is a value with named properties, not a list")
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FailingEncoder(reason: "a payload is a value with named properties, not a single value")
    }
}

/// The properties of a payload value: each flat one becomes a key and its text.
struct PayloadKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: PayloadStorage
    var codingPath: [any CodingKey] = []

    /// A nil optional is no key at all.
    mutating func encodeNil(forKey key: Key) {}
    mutating func encode(_ value: Bool, forKey key: Key) { storage.entries[key.stringValue] = value ? "true" : "false" }
    mutating func encode(_ value: String, forKey key: Key) { storage.entries[key.stringValue] = value }
    mutating func encode(_ value: Double, forKey key: Key) { storage.entries[key.stringValue] = String(value) }
    mutating func encode(_ value: Float, forKey key: Key) { storage.entries[key.stringValue] = String(value) }
    mutating func encode(_ value: Int, forKey key: Key) { storage.entries[key.stringValue] = String(value) }
    mutating func encode(_ value: Int8, forKey key: Key) { storage.entries[key.stringValue] = String(value) }
    mutating func encode(_ value: Int16, forKey key: Key) { storage.entries[key.stringValue] = String(value) }
    mutating func encode(_ value: Int32, forKey key: Key) { storage.entries[key.stringValue] = String(value) }
    mutating func encode(_ value: Int64, forKey key: Key) { storage.entries[key.stringValue] = String(value) }
    mutating func encode(_ value: UInt, forKey key: Key) { storage.entries[key.stringValue] = String(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) { storage.entries[key.stringValue] = String(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) { storage.entries[key.stringValue] = String(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) { storage.entries[key.stringValue] = String(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) { storage.entries[key.stringValue] = String(value) }

    /// Any other value must encode itself as one flat value (an enum with a raw value does).
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let single = SingleValueCapture(key: key.stringValue)
        try value.encode(to: single)
        guard let text = single.text else {
            throw PayloadCodingError(reason: "property \"\(key.stringValue)\" is not a flat value (text, number or boolean)")
        }
        storage.entries[key.stringValue] = text
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(FailingKeyedEncoder<NestedKey>(reason: nestedReason(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        FailingEncoder(reason: nestedReason(key))
    }

    mutating func superEncoder() -> any Encoder { FailingEncoder(reason: "a payload value has no superclass part") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { FailingEncoder(reason: nestedReason(key)) }

    private func nestedReason(_ key: Key) -> String {
        "property \"\(key.stringValue)\" is not a flat value (text, number or boolean)"
    }
}

/// Encodes one property's value, which must be a single flat value.
final class SingleValueCapture: Encoder, SingleValueEncodingContainer {
    let key: String
    var text: String?
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    init(key: String) {
        self.key = key
    }

    func container<Nested: CodingKey>(keyedBy type: Nested.Type) -> KeyedEncodingContainer<Nested> {
        KeyedEncodingContainer(FailingKeyedEncoder<Nested>(reason: reason))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { FailingEncoder(reason: reason) }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    private var reason: String { "property \"\(key)\" is not a flat value (text, number or boolean)" }

    func encodeNil() {}
    func encode(_ value: Bool) { text = value ? "true" : "false" }
    func encode(_ value: String) { text = value }
    func encode(_ value: Double) { text = String(value) }
    func encode(_ value: Float) { text = String(value) }
    func encode(_ value: Int) { text = String(value) }
    func encode(_ value: Int8) { text = String(value) }
    func encode(_ value: Int16) { text = String(value) }
    func encode(_ value: Int32) { text = String(value) }
    func encode(_ value: Int64) { text = String(value) }
    func encode(_ value: UInt) { text = String(value) }
    func encode(_ value: UInt8) { text = String(value) }
    func encode(_ value: UInt16) { text = String(value) }
    func encode(_ value: UInt32) { text = String(value) }
    func encode(_ value: UInt64) { text = String(value) }
    func encode<T: Encodable>(_ value: T) throws { try value.encode(to: self) }
}

/// A container for what a payload cannot hold: the first value put in it fails.
struct FailingEncoder: Encoder, UnkeyedEncodingContainer, SingleValueEncodingContainer {
    let reason: String
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    var count = 0

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FailingKeyedEncoder<Key>(reason: reason))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { self }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }
    mutating func encodeNil() throws { throw PayloadCodingError(reason: reason) }
    mutating func encode<T: Encodable>(_ value: T) throws { throw PayloadCodingError(reason: reason) }
    mutating func nestedContainer<Key: CodingKey>(keyedBy keyType: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FailingKeyedEncoder<Key>(reason: reason))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { self }
}

struct FailingKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let reason: String
    var codingPath: [any CodingKey] = []

    mutating func encodeNil(forKey key: Key) throws { throw PayloadCodingError(reason: reason) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw PayloadCodingError(reason: reason) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(FailingKeyedEncoder<NestedKey>(reason: reason))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { FailingEncoder(reason: reason) }
    mutating func superEncoder() -> any Encoder { FailingEncoder(reason: reason) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { FailingEncoder(reason: reason) }
}

/// Reads a payload's keys back as a value's properties.
struct PayloadDecoder: Decoder {
    let entries: [String: String]
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(PayloadKeyedDecoder<Key>(entries: entries))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw PayloadCodingError(reason: "a payload is read as a value with named properties, not a list")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw PayloadCodingError(reason: "a payload is read as a value with named properties, not a single value")
    }
}

struct PayloadKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let entries: [String: String]
    var codingPath: [any CodingKey] = []
    var allKeys: [Key] { entries.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }
    func decodeNil(forKey key: Key) -> Bool { entries[key.stringValue] == nil }

    private func text(_ key: Key) throws -> String {
        guard let text = entries[key.stringValue] else {
            throw PayloadCodingError(reason: "the payload has no key \"\(key.stringValue)\"")
        }
        return text
    }

    private func value<T: LosslessStringConvertible>(_ key: Key, as type: T.Type) throws -> T {
        let text = try text(key)
        guard let value = T(text) else {
            throw PayloadCodingError(reason: "key \"\(key.stringValue)\" holds \(quoted(text)), not a value of type \(T.self)")
        }
        return value
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(key, as: Bool.self) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try text(key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(key, as: Double.self) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(key, as: Float.self) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(key, as: Int.self) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(key, as: Int8.self) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(key, as: Int16.self) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(key, as: Int32.self) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(key, as: Int64.self) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(key, as: UInt.self) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(key, as: UInt8.self) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(key, as: UInt16.self) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(key, as: UInt32.self) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(key, as: UInt64.self) }

    /// Any other type reads its one flat value (an enum with a raw value does).
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let text = try text(key)
        do {
            return try T(from: SingleValueReader(key: key.stringValue, text: text))
        } catch is DecodingError {
            throw PayloadCodingError(reason: "key \"\(key.stringValue)\" holds \(quoted(text)), not a value of type \(T.self)")
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw PayloadCodingError(reason: "property \"\(key.stringValue)\" is read as a nested value; a payload holds flat values")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw PayloadCodingError(reason: "property \"\(key.stringValue)\" is read as a list; a payload holds flat values")
    }

    func superDecoder() throws -> any Decoder { PayloadDecoder(entries: entries) }
    func superDecoder(forKey key: Key) throws -> any Decoder { PayloadDecoder(entries: entries) }
}

/// One key's text, read as a single flat value.
struct SingleValueReader: Decoder, SingleValueDecodingContainer {
    let key: String
    let text: String
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw PayloadCodingError(reason: "property \"\(key)\" is read as a nested value; a payload holds flat values")
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw PayloadCodingError(reason: "property \"\(key)\" is read as a list; a payload holds flat values")
    }

    func singleValueContainer() -> any SingleValueDecodingContainer { self }

    private func value<T: LosslessStringConvertible>(as type: T.Type) throws -> T {
        guard let value = T(text) else { throw PayloadCodingError(reason: "key \"\(key)\" holds \(quoted(text)), not a value of type \(T.self)") }
        return value
    }

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { try value(as: Bool.self) }
    func decode(_ type: String.Type) throws -> String { text }
    func decode(_ type: Double.Type) throws -> Double { try value(as: Double.self) }
    func decode(_ type: Float.Type) throws -> Float { try value(as: Float.self) }
    func decode(_ type: Int.Type) throws -> Int { try value(as: Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try value(as: Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try value(as: Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try value(as: Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try value(as: Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try value(as: UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try value(as: UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try value(as: UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try value(as: UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try value(as: UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }
}
