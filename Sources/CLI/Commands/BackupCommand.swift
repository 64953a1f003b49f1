import TabStoreKit

enum BackupCommand: TextCommand {
    static let spec = CommandSpec(
        name: "backup",
        abstract: "Copy the whole database to a file, safely.",
        discussion: """
        A consistent copy made with SQLite's online backup API while other processes \
        keep working; 'tabstore --db FILE' reads it. The copy is written to a temporary \
        file beside FILE, synced, then renamed into place: after a failure or a kill, \
        FILE is its old self or the complete copy, never half of one (a kill may leave \
        the temporary '.FILE.tmp-PID' behind).

        Prints 'backed up to FILE'. With --json:
          {"backup":FILE}
        """,
        arguments: [ArgumentSpec(name: "file", kind: .text, help: "Where to write the copy.")],
        options: [.force],
        savesChanges: true
    )

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String {
        let path = try arguments.text("file")
        let store = try context.openStore()
        try storeCall { () throws(TabStoreError) in try store.backup(to: path, replacing: arguments.flag("force")) }
        if context.json { return JSONValue.object([("backup", .string(path))]).line }
        return "backed up to \(path)\n"
    }
}
