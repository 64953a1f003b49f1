import Foundation
import TabStoreKit

// The sync messages as JSON, read the way a server must read what devices it does not
// control send it: the bytes are bounded before any is decoded (at most
// `TabSyncLimits.messageBytes` are ever held), then decoded, then checked as the server
// and the device check them (version, numbers, counts). Every failure is a TabStoreError.

extension TabSyncPush {
    /// Reads a push as a server receives it. `bytes` may be a lazy sequence (a request body
    /// as it arrives): reading stops at the first byte past ``TabSyncLimits/messageBytes``.
    ///
    /// For example, in an app's backend:
    ///
    /// ```swift
    /// let push = try TabSyncPush(json: requestBody)
    /// let answer = try store.push(push)
    /// ```
    ///
    /// - Throws: `TabStoreError.Code.syncLimitExceeded`, `.syncVersionNotSupported`, or
    ///   `.invalidSyncMessage` naming where the JSON is not a push.
    public init(json bytes: some Sequence<UInt8>) throws(TabStoreError) {
        self = try readSyncMessage(bytes)
        try check()
    }
}

extension TabSyncPull {
    /// Reads a pull as a server receives it, as ``TabSyncPush/init(json:)`` reads a push.
    ///
    /// - Throws: `TabStoreError.Code.syncLimitExceeded`, `.syncVersionNotSupported`, or `.invalidSyncMessage`.
    public init(json bytes: some Sequence<UInt8>) throws(TabStoreError) {
        self = try readSyncMessage(bytes)
        try check()
    }
}

extension TabSyncPushResult {
    /// Reads a server's answer to a push as a device's transport receives it.
    ///
    /// - Throws: `TabStoreError.Code.syncLimitExceeded`, `.syncVersionNotSupported`, or `.invalidSyncMessage`.
    public init(json bytes: some Sequence<UInt8>) throws(TabStoreError) {
        self = try readSyncMessage(bytes)
        try check()
    }
}

extension TabSyncPullResult {
    /// Reads a server's answer to a pull as a device's transport receives it.
    ///
    /// - Throws: `TabStoreError.Code.syncLimitExceeded`, `.syncVersionNotSupported`, or `.invalidSyncMessage`.
    public init(json bytes: some Sequence<UInt8>) throws(TabStoreError) {
        self = try readSyncMessage(bytes)
        try check()
    }
}

/// The bytes, at most `TabSyncLimits.messageBytes` of them, decoded as `Message`.
private func readSyncMessage<Message: Decodable>(_ bytes: some Sequence<UInt8>) throws(TabStoreError) -> Message {
    let limit = TabSyncLimits.messageBytes
    // A sized body (Data, an array) is refused by its size before a byte is read.
    let known = bytes.underestimatedCount
    if known > limit { throw TabStoreError(.syncLimitExceeded(limit: "bytes in a message", maximum: limit, found: known)) }
    // Counted only up to the limit: the body's size stays untold.
    var buffer: [UInt8] = []
    if let whole = bytes.withContiguousStorageIfAvailable(Array.init) {
        buffer = whole
    } else {
        buffer.reserveCapacity(min(known, limit))
        for byte in bytes {
            guard buffer.count < limit else { throw TabStoreError(.syncLimitExceeded(limit: "bytes in a message", maximum: limit, found: nil)) }
            buffer.append(byte)
        }
    }
    try requireShapeWithinLimits(buffer)
    let data = Data(buffer)
    let decoder = JSONDecoder()
    do {
        return try decoder.decode(Message.self, from: data)
    } catch {
        // A message of another version may be shaped otherwise: its version is what to say.
        if let versioned = try? decoder.decode(Versioned.self, from: data), !TabSyncFormat.readableVersions.contains(versioned.version) {
            throw TabStoreError(.syncVersionNotSupported(version: versioned.version, readable: TabSyncFormat.readableVersions))
        }
        throw TabStoreError(.invalidSyncMessage(reason: describe(error)))
    }
}

/// The message's shape, counted in one pass over its bytes before anything is decoded, so
/// that what decoding allocates is bounded too: no array longer than the longest list a
/// message has (``TabSyncLimits/tabsPerMutation``), no nesting deeper than a message's,
/// and no more values in all than ``TabSyncLimits/messageValues``. Strings are skipped,
/// escapes and all; whether the rest is JSON is the decoder's to say.
private func requireShapeWithinLimits(_ bytes: [UInt8]) throws(TabStoreError) {
    let longestArray = max(TabSyncLimits.tabsPerMutation, TabSyncLimits.setsPerPull, TabSyncLimits.mutationsPerPush)
    // Elements counted so far in each open array (nil for an object).
    var open: [Int?] = []
    var values = 0
    var place = 0
    while place < bytes.count {
        switch bytes[place] {
        case UInt8(ascii: "\""):
            place += 1
            while place < bytes.count, bytes[place] != UInt8(ascii: "\"") {
                place += bytes[place] == UInt8(ascii: "\\") ? 2 : 1
            }
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            open.append(bytes[place] == UInt8(ascii: "[") ? 1 : nil)
            values += 1
            if open.count > 16 { throw TabStoreError(.syncLimitExceeded(limit: "levels of nesting", maximum: 16, found: nil)) }
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            _ = open.popLast()
        case UInt8(ascii: ","):
            values += 1
            if let count = open.last ?? nil {
                open[open.count - 1] = count + 1
                if count + 1 > longestArray { throw TabStoreError(.syncLimitExceeded(limit: "elements in one list", maximum: longestArray, found: nil)) }
            }
        default:
            break
        }
        if values > TabSyncLimits.messageValues {
            throw TabStoreError(.syncLimitExceeded(limit: "values in a message", maximum: TabSyncLimits.messageValues, found: nil))
        }
        place += 1
    }
}

private struct Versioned: Decodable {
    let version: Int
}

/// Where the JSON is not the message, in one line: the path to the value and what was wrong.
private func describe(_ error: any Error) -> String {
    // What Foundation's reader refuses before any value has a path.
    let unreadable = "not JSON, or a number that does not fit where it stands"
    switch error as? DecodingError {
    case let .dataCorrupted(context)? where context.codingPath.isEmpty: return unreadable
    case let error?: return error.whereAndWhat
    case nil: return unreadable
    }
}
