/// The `tabstore` command tree, declared as data.
enum Program {
    static let version = "0.1.0"

    /// In the order `tabstore --help` lists them.
    static let commands: [any TabstoreCommand.Type] = [
        AddCommand.self, SelectCommand.self, ListCommand.self, ShowCommand.self, RestoreCommand.self,
        RemoveCommand.self, MoveCommand.self, RenameCommand.self, ReopenCommand.self, SetDataCommand.self,
        HistoryCommand.self, WatchCommand.self,
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

        Text output (all but --json) shows names, titles and paths with what would act on \
        a terminal or not show written as escapes: control characters as \\n, \\t, \\r or \
        \\u{1b}, bidirectional controls and invisible format characters as \\u{HEX}, and \
        a backslash as \\\\ where it would read as one of those. With --escaped, set names \
        and titles given as arguments are read in that spelling; a set that 'list' shows \
        as a\\tb is removed with: tabstore --escaped remove-set 'a\\tb'

        The database is --db, else $TABSTORE_DB, else $XDG_DATA_HOME/tabstore/tabs.sqlite, \
        else ~/.local/share/tabstore/tabs.sqlite. Only 'add' and 'import' create it and its \
        folders; other commands read a missing database as empty and create nothing. \
        A postgresql:// URL names a database on a PostgreSQL server (served by \
        tabstore-postgres, installed beside tabstore, with libpq5; the password from the \
        URL, $PGPASSWORD or ~/.pgpass, never shown): 'add' and 'import' create tabstore's \
        tables in it. A command whose server goes away before it saved anything (a \
        restart, a standby being promoted) connects again and runs again for \
        $TABSTORE_FAILOVER_WINDOW seconds (default 5); a server silent for \
        $TABSTORE_SERVER_TIMEOUT seconds (default 10) beyond the busy timeout ends it.

        Exit codes: 0 done; 1 the request cannot be done (unknown set or tab, index out of \
        range, duplicate or invalid title, empty set, set changed since --if-revision, \
        malformed import document, no database yet for info, watch or backup, backup of a \
        server); 2 usage error; 3 database problem (cannot open or create, not a tabstore \
        database, corrupt, too new, read-only, disk full, locked, damaged per info; for a \
        server: cannot connect, a URL libpq refuses, libpq or tabstore-postgres missing, \
        connection lost, no answer, a standby, a missing privilege); 4 the \
        output could not be written \
        (standard output, or the file of 'backup' or 'export --output'; the message says \
        when the change itself was saved). A failed command changes nothing. Errors \
        are one line on standard error; with --json, {"error":{"code","message"}}.
        """,
        globalOptions: globalOptions,
        commands: commands.map { $0.spec },
        examples: Example.program
    )

    static func command(named name: String) -> (any TabstoreCommand.Type)? {
        commands.first { $0.spec.name == name }
    }
}
