// What Foundation adds to TabStoreKit: file URLs, UUIDs and `localizedDescription`.
// TabStoreKit itself never imports Foundation, on any platform, because the `tabstore`
// command links it and must start without loading Foundation (docs/Performance.md). The
// TabStoreKit product brings this module with it, so in an app `error.localizedDescription`
// is the store's own sentence everywhere; `import TabStoreFoundation` for the rest.
import Foundation
import TabStoreKit

/// `localizedDescription` is the sentence the CLI prints, on Linux as on Apple platforms.
extension TabStoreError: LocalizedError {
    /// The same sentence as ``TabStoreKit/TabStoreError/description``.
    public var errorDescription: String? { description }
}

extension TabStore {
    /// Opens the database at a file URL, as `init(path:options:)` does (making its missing
    /// folders); for an app group's container:
    /// `FileManager.default.containerURL(forSecurityApplicationGroupIdentifier:)`.
    ///
    /// - Throws: `TabStoreError.Code.cannotOpen` for a URL that is not a file URL; else as `init(path:options:)`.
    public convenience init(url: URL, options: Options = Options()) throws(TabStoreError) {
        guard url.isFileURL else { throw TabStoreError(.cannotOpen(path: url.absoluteString, reason: "not a file URL")) }
        try self.init(path: url.path(percentEncoded: false), options: options)
    }
}

extension TabID {
    /// The id as Foundation's `UUID`.
    public var uuid: UUID {
        // A TabID is always a UUID's canonical text, which UUID reads.
        UUID(uuidString: uuidString)!
    }

    /// The id of a `UUID`.
    public init(_ uuid: UUID) {
        // UUID writes the same 8-4-4-4-12 form (in capitals), which TabID reads.
        self.init(uuid.uuidString)!
    }
}
