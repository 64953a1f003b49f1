/// The `tabstore` command tree, declared as data.
enum Program {
    static let version = "0.1.0"

    /// In the order `tabstore --help` lists them.
    static let commands: [any TabstoreCommand.Type] = [
        AddCommand.self, SelectCommand.self, ListCommand.self, ShowCommand.self, RestoreCommand.self,
        RemoveCommand.self, MoveCommand.self, RenameCommand.self, ReopenCommand.self, SetDataCommand.self,
        HistoryCommand.self, WatchCommand.self, SyncCommand.self,
        RenameSetCommand.self, RemoveSetCommand.self, ExportCommand.self, ImportCommand.self, BackupCommand.self,
        InfoCommand.self, CompletionsCommand.self, HelpCommand.self, CompleteCommand.self,
    ]

    static let globalOptions = [
        OptionSpec(
            name: "db", kind: .value(valueName: "path"),
            help: "The database file, or a postgresql:// (or postgres://) URL of a database on a PostgreSQL server. Default: $TABSTORE_DB, else $XDG_DATA_HOME/tabstore/tabs.sqlite, else ~/.local/share/tabstore/tabs.sqlite.",
            completion: .files
        ),
        OptionSpec(name: "json", kind: .flag, help: "Print one line of JSON instead of text; errors too."),
        OptionSpec(
            name: "escaped", kind: .flag,
            help: "Read set names and titles as text output shows them: \\n, \\t, \\r and \\u{HEX} are those characters, \\\\ a backslash."
        ),
        OptionSpec(name: "version", kind: .flag, help: "Show the version."),
        OptionSpec(name: "help", short: "h", kind: .flag, help: "Show help information."),
    ]

    static let spec = ProgramSpec(
        name: "tabstore",
        abstract: "Keep named tab sets and their selected tab in a SQLite database or on a PostgreSQL server.",
        discussion: """
        A <tab> is a 0-based index when it is an integer (negative counts from the end, \
        so -1 is the last tab), otherwise an exact title; '--title 1' is the tab titled "1" \
        and '--index 1' the second tab. An integer that is also another tab's title is \
        refused (exit 1) by every command taking a <tab>: say which with --index or --title. \
        Global options may come before or after the subcommand; '--' ends options.

        The database is --db, else $TABSTORE_DB, else $XDG_DATA_HOME/tabstore/tabs.sqlite, \
        else ~/.local/share/tabstore/tabs.sqlite. Only 'add', 'import' and 'sync' create it \
        and its folders; other commands read a missing database as empty and create nothing. \
        A postgresql:// URL names a database on a PostgreSQL server (served by \
        tabstore-postgres, installed beside tabstore, with libpq5; the password from the \
        URL, $PGPASSWORD or ~/.pgpass, never shown). A command whose server goes away \
        before it saved anything connects again and runs again for \
        $TABSTORE_FAILOVER_WINDOW seconds (default 5); a server silent for \
        $TABSTORE_SERVER_TIMEOUT seconds (default 10) beyond the busy timeout ends it.

        Text output (all but --json) shows what would act on a terminal or not show as \
        escapes: control characters as \\n, \\t, \\r or \\u{1b}, bidirectional controls and \
        invisible format characters as \\u{HEX}, and a backslash as \\\\ where it would read \
        as one of those. With --escaped, set names and titles given as arguments are read \
        in that spelling: tabstore --escaped remove-set 'a\\tb'

        A failed command changes nothing. Errors are one line on standard error; with \
        --json, {"error":{"code","message"}}.
        """,
        globalOptions: globalOptions,
        commands: commands.map { $0.spec },
        examples: Example.program,
        topics: [exitCodes]
    )

    static let exitCodes = HelpTopic(
        name: "exit-codes",
        heading: "EXIT CODES",
        manSection: "EXIT STATUS",
        abstract: "for what each exit code means",
        entries: [
            ("0", "Done. A reader that leaves early (| head -1) is not an error."),
            ("1", "The request cannot be done: an unknown set or tab, an index out of range, a duplicate or invalid title, an empty set, a set changed since --if-revision, a malformed import document, no database yet for info, watch or backup (on a server: no tabstore tables yet), backup of a server, an existing FILE for backup or export --output without --force, or anything but a regular file there. For sync: a file that syncs with another server, the missing server of a device that has synced, or one file as both device and server (a server's file or database given as the device, a device's file as the server)."),
            ("2", "A usage error: the command line does not match the command (the message names what, and the help to read); an empty --db or TABSTORE_DB, or a TABSTORE_DB, XDG_DATA_HOME or HOME that is not UTF-8; sync given the database itself as its server."),
            ("3", "A database problem: it cannot be opened or created, is not a database or is another program's, is corrupt, newer than this tabstore, read-only or in a folder that is not writable, the disk is full, it is still locked after the busy timeout, or a set is damaged per 'info'. For a server: it cannot be reached, refuses the login or has no such database, a URL libpq refuses, libpq or tabstore-postgres missing, the connection lost, no answer, a standby, a missing privilege. For sync: two files syncing as one device (a copy of a device's file, or an older copy put back), a server that lost edits it had settled (replaced, or put back from an older copy), a damaged sync log. Also a resource the system refused: no free file descriptor, no thread for watch or sync --watch, not enough memory for an import."),
            ("4", "The output could not be written (standard output, or the file of backup or export --output); after a command that changed something the message says the change itself was saved."),
        ]
    )

    static func command(named name: String) -> (any TabstoreCommand.Type)? {
        commands.first { $0.spec.name == name }
    }
}
