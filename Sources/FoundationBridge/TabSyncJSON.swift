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
    if known > limit { throw .syncLimitExceeded(limit: "bytes in a message", maximum: limit, found: known) }
    var buffer: [UInt8] = []
    if let whole = bytes.withContiguousStorageIfAvailable(Array.init) {
        buffer = whole
    } else {
        buffer.reserveCapacity(min(known, limit))
        for byte in bytes {
            guard buffer.count < limit else { throw .syncLimitExceeded(limit: "bytes in a message", maximum: limit, found: limit + 1) }
            buffer.append(byte)
        }
    }
    let data = Data(buffer)
    let decoder = JSONDecoder()
    do {
        return try decoder.decode(Message.self, from: data)
    } catch {
        // A message of another version may be shaped otherwise: its version is what to say.
        if let versioned = try? decoder.decode(Versioned.self, from: data), !TabSyncFormat.readableVersions.contains(versioned.version) {
            throw .syncVersionNotSupported(version: versioned.version, readable: TabSyncFormat.readableVersions)
        }
        throw .invalidSyncMessage(reason: describe(error))
    }
}

private struct Versioned: Decodable {
    let version: Int
}

/// Where the JSON is not the message, in one line: the path to the value and what was wrong.
private func describe(_ error: any Error) -> String {
    func path(_ keys: [any CodingKey]) -> String {
        let text = keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
        return text.isEmpty ? "the message" : String(text.drop { $0 == "." })
    }
    switch error as? DecodingError {
    case let .keyNotFound(key, context)?:
        return "\(path(context.codingPath + [key])) is missing"
    case let .typeMismatch(_, context)?, let .valueNotFound(_, context)?:
        return "\(path(context.codingPath)) is not of the expected type"
    case let .dataCorrupted(context)?:
        return context.codingPath.isEmpty ? "unreadable JSON" : "\(path(context.codingPath)) is not a valid value"
    default:
        return "unreadable JSON"
    }
}
