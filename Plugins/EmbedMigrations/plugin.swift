import Foundation
import PackagePlugin

/// Embeds a target's migrations as generated Swift source: `migrations/*.sql` (SQLite)
/// into TabStoreKit, with the schema each version makes in SQLite, and
/// `migrations/postgresql/*.sql` into TabStorePostgres.
///
/// The SQL files stay the single source of truth; the build regenerates
/// `EmbeddedMigrations.swift` whenever one of them changes.
@main
struct EmbedMigrations: BuildToolPlugin {
    /// Where each target's migrations live, the module that declares `Migration` when it
    /// is not the target itself, and whether they are SQLite's (their schemas embedded too).
    static let sources: [String: (folder: String, importing: String?, sqlite: Bool)] = [
        "TabStoreKit": ("migrations", nil, true),
        "TabStorePostgres": ("migrations/postgresql", "TabStoreKit", false),
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let source = Self.sources[target.name] else {
            throw PluginError(message: "EmbedMigrations: no migrations folder is known for target \(target.name)")
        }
        let folder = context.package.directoryURL.appending(path: source.folder)
        let sqlFiles = try FileManager.default
            .contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        let importing = (source.importing.map { ["--import", $0] } ?? []) + (source.sqlite ? ["--sqlite-schemas"] : [])
        return [
            .buildCommand(
                displayName: "Embedding \(sqlFiles.count) migrations from \(source.folder)",
                executable: try context.tool(named: "TabStoreEmbedMigrationsTool").url,
                arguments: importing + [output.path] + sqlFiles.map(\.path),
                inputFiles: sqlFiles,
                outputFiles: [output]
            )
        ]
    }
}

struct PluginError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
