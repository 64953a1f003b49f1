import Foundation
import TabStoreSQLite

// Usage: EmbedMigrationsTool [--import MODULE] [--sqlite-schemas] OUTPUT.swift NNNN_name.sql...
// Writes `embeddedMigrations`, one entry per file, in file-name order.
// File names must be `NNNN_description.sql`; the number is the schema version.
// --import: the module declaring `Migration`, for a target other than TabStoreKit.
// --sqlite-schemas: also writes `embeddedSchemas`, the schema objects each version's
// migrations make in SQLite (applied here to an in-memory database), and
// `embeddedStatisticsTables`, the tables SQLite's ANALYZE adds: a file is recognised
// against them at every open, which must not pay for running the migrations.

var arguments = CommandLine.arguments.dropFirst()
var importedModule: String?
var writesSQLiteSchemas = false
while let option = arguments.first, option.hasPrefix("--") {
    arguments = arguments.dropFirst()
    switch option {
    case "--import": importedModule = arguments.popFirst() ?? ""
    case "--sqlite-schemas": writesSQLiteSchemas = true
    default: importedModule = ""
    }
}
guard let outputPath = arguments.first, importedModule?.isEmpty != true else {
    FileHandle.standardError.write(Data("usage: EmbedMigrationsTool [--import MODULE] [--sqlite-schemas] OUTPUT SQL...\n".utf8))
    exit(2)
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("EmbedMigrationsTool: error: \(message)\n".utf8))
    exit(1)
}

/// A Swift string literal holding `text` exactly: raw, with enough `#`s; multi-line
/// when the text has a line break.
func literal(_ text: String) -> String {
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    if !text.contains(where: \.isNewline) { return hashes + "\"" + text + "\"" + hashes }
    return hashes + "\"\"\"\n" + text + "\n\"\"\"" + hashes
}

/// Every row of `sqlite_master` (rootpage aside) as the arguments of a `SchemaObject`,
/// in the order the library compares them: by type, then name.
func schemaObjects(_ database: OpaquePointer, where condition: String = "1") -> [String] {
    var statement: OpaquePointer?
    let sql = "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE \(condition) ORDER BY type, name"
    guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else {
        fail("cannot read sqlite_master: \(String(cString: sqlite3_errmsg(database)))")
    }
    defer { sqlite3_finalize(statement) }
    var objects: [String] = []
    while sqlite3_step(statement) == SQLITE_ROW {
        let column = { (index: Int32) in sqlite3_column_text(statement, index).map { String(cString: $0) } }
        let sql = column(3).map(literal) ?? "nil"
        objects.append("SchemaObject(type: \(literal(column(0) ?? "")), name: \(literal(column(1) ?? "")), table: \(literal(column(2) ?? "")), sql: \(sql))")
    }
    return objects
}

/// `embeddedSchemas` and `embeddedStatisticsTables` for `migrations`, as Swift source.
func sqliteSchemas(_ migrations: [(version: Int, sql: String)]) -> String {
    var database: OpaquePointer?
    guard sqlite3_open(":memory:", &database) == SQLITE_OK, let database else { fail("cannot open an in-memory database") }
    defer { sqlite3_close(database) }
    func execute(_ sql: String) {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(database, sql, nil, nil, &message) == SQLITE_OK else {
            fail("the migrations fail in SQLite: \(message.map { String(cString: $0) } ?? "")")
        }
    }
    var versions: [String] = []
    for migration in migrations {
        execute(migration.sql)
        versions.append("    \(migration.version): [\n" + schemaObjects(database).map { "        \($0),\n" }.joined() + "    ],")
    }
    execute("ANALYZE")
    let statistics = schemaObjects(database, where: "name LIKE 'sqlite\\_stat%' ESCAPE '\\'")
    return """

    let embeddedSchemas: [Int: [SchemaObject]] = [
    \(versions.joined(separator: "\n"))
    ]

    let embeddedStatisticsTables: [SchemaObject] = [
    \(statistics.map { "    \($0)," }.joined(separator: "\n"))
    ]

    """
}

var entries: [String] = []
var versions: Set<Int> = []
var migrations: [(version: Int, sql: String)] = []
for path in arguments.dropFirst().sorted(by: { ($0 as NSString).lastPathComponent < ($1 as NSString).lastPathComponent }) {
    let fileName = (path as NSString).lastPathComponent
    let stem = (fileName as NSString).deletingPathExtension
    guard let underscore = stem.firstIndex(of: "_"),
          let version = Int(stem[..<underscore]), version > 0
    else { fail("\(fileName): name must be NNNN_description.sql") }
    guard versions.insert(version).inserted else { fail("\(fileName): version \(version) appears twice") }
    guard let sql = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
    let name = String(stem[stem.index(after: underscore)...])
    entries.append("    Migration(version: \(version), name: \(literal(name)), sql: \(literal(sql))),")
    migrations.append((version, sql))
}
let expected = Array(1...max(entries.count, 1)).prefix(entries.count)
guard versions.sorted() == Array(expected) else { fail("versions must be 1, 2, 3... without gaps; found \(versions.sorted())") }

let importLine = importedModule.map { "import \($0)\n\n" } ?? ""
let source = """
// Generated by the EmbedMigrations plugin from migrations. Do not edit.

\(importLine)let embeddedMigrations: [Migration] = [
\(entries.joined(separator: "\n"))
]

""" + (writesSQLiteSchemas ? sqliteSchemas(migrations) : "")
do {
    try source.write(toFile: outputPath, atomically: true, encoding: .utf8)
} catch {
    fail("cannot write \(outputPath): \(error)")
}
