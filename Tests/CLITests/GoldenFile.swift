import Foundation
import Testing

/// Expected output kept in `Golden/NAME`, beside this file, so the package declares no
/// resources. `RECORD_GOLDEN=1 swift test` writes what the run produced instead (and fails
/// the test, so a recording run is never mistaken for a passing one); review the diff.
enum GoldenFile {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static var isRecording: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" }

    static func expect(_ actual: String, matches name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = folder.appendingPathComponent(name).path
        if isRecording {
            _ = FileManager.default.createFile(atPath: path, contents: Data(actual.utf8))
            Issue.record("recorded \(name); run again without RECORD_GOLDEN", sourceLocation: sourceLocation)
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            Issue.record("missing golden file \(path); record it with RECORD_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == String(decoding: data, as: UTF8.self), "differs from Golden/\(name)", sourceLocation: sourceLocation)
    }
}
