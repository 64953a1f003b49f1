// Foundation only where it costs nothing: on Apple platforms it is part of the system.
// On Linux the library stays free of it, because the CLI links the library and its
// start-up must not load Foundation; there `"\(error)"` and `String(describing:)` give
// the same sentence (`TabStoreError` is `CustomStringConvertible`).
#if canImport(Darwin)
import Foundation

/// `localizedDescription` is the sentence the CLI prints.
extension TabStoreError: LocalizedError {
    /// The same sentence as ``description``.
    public var errorDescription: String? { description }
}

extension TabStore {
    /// Opens the database at a file URL, as `init(path:options:)` does; for an app group's
    /// container: `FileManager.default.containerURL(forSecurityApplicationGroupIdentifier:)`.
    ///
    /// - Throws: `TabStoreError.cannotOpen` for a URL that is not a file URL; else as `init(path:options:)`.
    public convenience init(url: URL, options: Options = Options()) throws(TabStoreError) {
        guard url.isFileURL else { throw .cannotOpen(path: url.absoluteString, reason: "not a file URL") }
        try self.init(path: url.path(percentEncoded: false), options: options)
    }
}

extension TabID {
    /// The id as Foundation's `UUID`.
    public var uuid: UUID { UUID(uuidString: uuidString)! }

    /// The id of a `UUID`.
    public init(_ uuid: UUID) { self.init(uuid.uuidString)! }
}
#endif
