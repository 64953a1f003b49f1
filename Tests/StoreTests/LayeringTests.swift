import Foundation
import Testing

/// The library's layers, read from its source: the public API (the files directly in
/// Sources/Store, and the tab bar's in Sources/Store/TabBar) and the rules (Sources/Store/Rules) are written over the backend
/// boundary and know no backend; SQL lives in the backends (`Sources/Store/SQLite/` here,
/// and the PostgreSQL module), and in the SQLite backend only its record files, its plan
/// executor and plumbing hold it, with C calls only in the plumbing.
@Suite struct LayeringTests {
    static let storeFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Store")

    /// The SQLite backend's files that hold SQL text: one per kind of row.
    static let recordFiles: Set = [
        "SQLite/TabSetRecords.swift", "SQLite/ClosedTabRecords.swift", "SQLite/ChangeJournal.swift", "SQLite/SQLitePlan.swift",
    ]

    /// The Swift files directly in Sources/Store, in Sources/Store/Rules and in
    /// Sources/Store/TabBar (not those under SQLite/).
    static func storeFiles() throws -> [String] {
        let top = try FileManager.default.contentsOfDirectory(atPath: storeFolder.path)
        let folders = try ["Rules", "TabBar"].flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: storeFolder.appendingPathComponent(folder).path).map { folder + "/" + $0 }
        }
        return (top + folders).filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// Lines of `file` containing any of `needles`, as `file:line: text`; comment lines
    /// (which may name a pragma to explain it) are not code and are skipped.
    static func lines(of file: String, containing needles: [String]) throws -> [String] {
        let text = try String(contentsOf: storeFolder.appendingPathComponent(file), encoding: .utf8)
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("//") { continue }
            if needles.contains(where: { line.contains($0) }) {
                found.append("\(file):\(number + 1): \(trimmed)")
            }
        }
        return found
    }

    @Test func rulesHoldNoSQLAndNameNoBackend() throws {
        let files = try Self.storeFiles()
        // The listing really is the library's: the rule cannot pass on an empty folder.
        #expect(files.contains("TabStore.swift"))
        #expect(files.contains("TabStore+Editing.swift"))
        #expect(files.contains("Rules/SelectRule.swift"))
        #expect(files.contains("TabBar/TabBarModel.swift"))
        var offending: [String] = []
        for file in files {
            offending += try Self.lines(
                of: file,
                containing: ["SELECT ", "INSERT ", "UPDATE ", "DELETE ", "PRAGMA ", "sqlite3_", "import TabStoreSQLite", " Database", "(Database", "Database."]
            )
        }
        #expect(offending == [])
    }

    /// What a backend can do is asked of the backend boundary (a device's log, a backup),
    /// never found by casting the backend to the one that can: no file of the library,
    /// SQLite's included, casts a backend.
    @Test func noFileCastsTheBackend() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.storeFolder.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.contains("SQLite/SQLiteBackend.swift"))
        var offending: [String] = []
        for file in files {
            offending += try Self.lines(of: file, containing: ["as? SQLiteBackend", "as! SQLiteBackend", "is SQLiteBackend", "backend as?", "backend as!"])
        }
        #expect(offending == [])
    }

    @Test func recordFilesCallNoSQLiteFunctions() throws {
        var offending: [String] = []
        for file in Self.recordFiles.sorted() {
            offending += try Self.lines(of: file, containing: ["sqlite3_"])
        }
        #expect(offending == [])
    }
}
