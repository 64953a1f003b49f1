import Foundation
import PackagePlugin

/// Embeds the package's `migrations/*.sql` into the target as generated Swift source.
///
/// The SQL files stay the single source of truth; the build regenerates
/// `EmbeddedMigrations.swift` whenever one of them changes.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "migrations")
        let sqlFiles = try FileManager.default
            .contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(sqlFiles.count) migrations",
                executable: try context.tool(named: "TabStoreEmbedMigrationsTool").url,
                arguments: [output.path] + sqlFiles.map(\.path),
                inputFiles: sqlFiles,
                outputFiles: [output]
            )
        ]
    }
}
