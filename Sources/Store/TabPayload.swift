/// A tab's payload: the app's own small key/value data, kept with the tab.
extension TabStore {
    /// The most a payload may hold: its keys' and values' UTF-8 bytes together (4 KiB).
    /// Enough for a route, an icon name and a badge; large data belongs in the app's files.
    public static let payloadLimit = 4096
}

/// Refuses a payload with an empty key, a NUL character (which PostgreSQL's text cannot
/// hold: one rule for every backend, so a file's export always imports into a server), or
/// over `TabStore.payloadLimit` bytes. Keys are checked in byte order, so the error named
/// is always the same one.
func validPayload(_ payload: [String: String]) throws(TabStoreError) {
    var bytes = 0
    for key in payload.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
        let value = payload[key]!
        if key.isEmpty { throw TabStoreError(.emptyPayloadKey) }
        if key.utf8.contains(0) { throw TabStoreError(.payloadContainsNUL(key: key, inValue: false)) }
        if value.utf8.contains(0) { throw TabStoreError(.payloadContainsNUL(key: key, inValue: true)) }
        bytes += key.utf8.count + value.utf8.count
    }
    if bytes > TabStore.payloadLimit { throw TabStoreError(.payloadTooLarge(bytes: bytes, limit: TabStore.payloadLimit)) }
}

/// Whether two payloads hold the same bytes: keys and values compared byte for byte, as
/// stored (a dictionary finds a key by Swift's `==`, which equates canonically equivalent
/// strings, so the key found is compared again).
package func samePayload(_ a: [String: String], _ b: [String: String]) -> Bool {
    guard a.count == b.count else { return false }
    return a.allSatisfy { key, value in
        guard let place = b.index(forKey: key) else { return false }
        return sameBytes(key, b[place].key) && sameBytes(value, b[place].value)
    }
}

/// The payload column's text: each key then value as `<UTF-8 byte count>:<bytes>`, pairs
/// sorted by key; `nil` (SQL NULL) for an empty payload. Counted, not separated, so any
/// text fits without escaping.
package func packPayload(_ payload: [String: String]) -> String? {
    guard !payload.isEmpty else { return nil }
    var text = ""
    for key in payload.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
        for part in [key, payload[key]!] {
            text += "\(part.utf8.count):"
            text += part
        }
    }
    return text
}

/// The payload `packPayload` wrote; what cannot be read (a row edited by hand) ends it.
package func unpackPayload(_ text: String?) -> [String: String] {
    readPayload(text).payload
}

/// Whether `text` is a payload as tabstore writes it: read whole, and a payload that
/// `validPayload` takes. What else a row holds was written around tabstore (`info` says so).
package func isStoredPayload(_ text: String?) -> Bool {
    guard let text else { return true }
    // An empty payload is stored as NULL, so "" packs to nothing.
    let (payload, whole) = readPayload(text)
    guard whole, let packed = packPayload(payload) else { return false }
    do throws(TabStoreError) {
        try validPayload(payload)
    } catch {
        return false
    }
    return sameBytes(packed, text)
}

/// The pairs read from `text`, and whether that was all of it.
private func readPayload(_ text: String?) -> (payload: [String: String], whole: Bool) {
    guard let text else { return ([:], true) }
    let bytes = Array(text.utf8)
    var payload: [String: String] = [:]
    var offset = 0
    func part() -> String? {
        var length = 0
        while offset < bytes.count, bytes[offset] != UInt8(ascii: ":") {
            let digit = bytes[offset]
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9"), length < 1_000_000 else { return nil }
            length = length * 10 + Int(digit - UInt8(ascii: "0"))
            offset += 1
        }
        guard offset < bytes.count, offset + 1 + length <= bytes.count else { return nil }
        let start = offset + 1
        offset = start + length
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }
    while offset < bytes.count {
        guard let key = part(), let value = part() else { return (payload, false) }
        payload[key] = value
    }
    return (payload, true)
}

extension TabStore {
    /// Replaces a tab's payload (an empty one removes it); the tab's place, title and
    /// selection stay. Setting the payload it already has changes nothing.
    ///
    /// - Throws: `TabStoreError.Code.payloadTooLarge`, `.emptyPayloadKey`, `.payloadContainsNUL`, `.setNotFound`,
    ///   `.tabNotFound`, `.tabIDNotFound`, `.indexOutOfRange`, `.revisionMismatch`.
    @discardableResult
    public func setPayload(
        _ payload: [String: String], for ref: TabRef, in setName: String, ifRevision: Int? = nil
    ) throws(TabStoreError) -> TabSetEdit {
        try perform(PayloadRule(payload, for: ref, in: setName, ifRevision: ifRevision))
    }
}
