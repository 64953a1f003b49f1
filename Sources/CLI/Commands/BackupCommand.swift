import TabStoreKit

enum BackupCommand: TextCommand {
    static let spec = CommandSpec(
        name: "backup",
        abstract: "Copy the whole database to a file, safely.",
        discussion: """
        A consistent copy made with SQLite's online backup API while other processes \
        keep working; 'tabstore --db FILE' reads it. The copy is written to a temporary \
        file beside FILE, synced, then renamed into place: after a failure or a kill, \
        FILE is its old self or the complete copy, never half of one. SIGHUP (a \
        closed terminal), SIGINT and SIGTERM remove the temporary '.FILE.tmp-PID' \
        before the run ends; only SIGKILL (or a power cut) leaves it behind. Only \
        a regular file is replaced (with --force), and the copy keeps its permissions \
        (and, as root, its owner and group); a symbolic link, directory, device, named \
        pipe or socket at FILE is refused (exit 1). A database on a PostgreSQL server is not \
        copied (exit 1): use 'tabstore export', or pg_dump.

        When standard error is a terminal, a backup that takes more than about half a \
        second shows its progress there (not with --json).

        Prints 'backed up to FILE'. With --json:
          {"backup":FILE}
        """,
        arguments: [ArgumentSpec(name: "file", kind: .text, help: "Where to write the copy.", completion: .files)],
        options: [.force]
    )

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String {
        let path = try arguments.text("file")
        if path.isEmpty {
            throw .usage(UsageError(message: "The value '' is invalid for '<file>': it is empty", command: spec.name))
        }
        let store = try context.openExistingStore()
        let progress = ProgressLine.onStandardError(label: "backup", unit: "pages", json: context.json)
        defer { progress.finish() }
        TemporaryFileSignals.install()
        try storeCall { () throws(TabStoreError) in
            try store.backup(to: path, replacing: arguments.flag("force")) { progress.update($0.copiedPages, of: $0.pageCount) }
        }
        if context.json { return JSONValue.object([("backup", .string(path))]).line }
        return "backed up to \(VisibleText.shown(path))\n"
    }
}
