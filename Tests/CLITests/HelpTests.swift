import Testing
@testable import TabStoreCLI

@Suite struct HelpTests {
    static let commandNames = Program.spec.commands.map(\.name)

    @Test(arguments: commandNames)
    func everySpellingOfHelpPrintsTheSameText(command: String) {
        let sandbox = Sandbox()
        let expected = sandbox.runWithoutDatabase(["help", command])
        #expect(expected.code == 0)
        #expect(expected.stderr == "")
        #expect(expected.stdout.hasPrefix("OVERVIEW: "))
        #expect(expected.stdout.contains("\nUSAGE: tabstore \(command)"))
        #expect(sandbox.runWithoutDatabase([command, "--help"]) == expected)
        #expect(sandbox.runWithoutDatabase([command, "-h"]) == expected)
        #expect(sandbox.runWithoutDatabase(["--help", command]) == expected)
        // Help wins over what else is wrong on the line, and opens no database.
        #expect(sandbox.runWithoutDatabase([command, "x", "y", "z", "--bad", "-h", "--db", sandbox.database]) == expected)
        #expect(!sandbox.exists(sandbox.database))
    }

    @Test func rootHelpHasEverySpelling() {
        let sandbox = Sandbox()
        let expected = Output.ok(Self.rootHelp)
        #expect(sandbox.runWithoutDatabase(["--help"]) == expected)
        #expect(sandbox.runWithoutDatabase(["-h"]) == expected)
        #expect(sandbox.runWithoutDatabase(["help"]) == expected)
        #expect(sandbox.runWithoutDatabase([]) == expected)
        #expect(sandbox.runWithoutDatabase(["--json", "--db", sandbox.database]) == expected)
    }

    @Test func selectHelp() {
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["help", "select"]) == .ok(Self.selectHelp))
    }

    @Test func helpForAnUnknownSubcommand() {
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["help", "nope"]) == .failure(2, """
            tabstore: error: Unknown subcommand 'nope'
            Usage: tabstore help [<subcommand>]
            See 'tabstore help help' for more.

            """))
    }

    @Test(arguments: [nil] + commandNames.map(Optional.some))
    func helpFitsEightyColumns(command: String?) {
        let text = command.flatMap(Program.spec.command(named:)).map { HelpText.help(for: $0, program: Program.spec) }
            ?? HelpText.rootHelp(of: Program.spec)
        // JSON shape examples may run longer; they are not wrapped so they can be copied.
        let long = text.split(separator: "\n").filter { $0.count > 80 && !$0.hasPrefix("  {") }
        #expect(long.isEmpty)
    }

    static let rootHelp = """
        OVERVIEW: Keep named tab sets and their selected tab in a SQLite database.

        A <tab> is a 0-based index when it is an integer (negative counts from the end,
        so -1 is the last tab), otherwise an exact title; '--title 1' is the tab titled
        "1". Global options may come before or after the subcommand; '--' ends options.

        The database is --db, else $TABSTORE_DB, else
        $XDG_DATA_HOME/tabstore/tabs.sqlite, else ~/.local/share/tabstore/tabs.sqlite.
        Only 'add' and 'import' create it and its folders; other commands read a missing
        database as empty and create nothing.

        Exit codes: 0 done; 1 the request cannot be done (unknown set or tab, index out
        of range, duplicate or invalid title, empty set, set changed since
        --if-revision, malformed import document, no database yet for info or watch); 2
        usage error; 3 database problem (cannot open or create, not a tabstore database,
        corrupt, too new, read-only, disk full, locked, damaged per info). A failed
        command changes nothing. Errors are one line on standard error; with --json,
        {"error":{"code","message"}}.

        USAGE: tabstore <subcommand> [<arguments> ...] [--db <path>] [--json]

        OPTIONS:
          --db <path>             The database file. Default: $TABSTORE_DB, else
                                  $XDG_DATA_HOME/tabstore/tabs.sqlite, else
                                  ~/.local/share/tabstore/tabs.sqlite.
          --json                  Print one line of JSON instead of text; errors too.
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          add                     Add tabs to a set, creating the set when missing.
          select                  Select a tab; reselecting it changes nothing.
          list                    List every set, or the tabs of one set.
          show                    Draw a set's tab bar, the selected tab underlined.
          restore                 Print the selected tab's index, to restore at launch.
          remove                  Remove tabs from a set.
          move                    Move a tab; the selection stays on the same tab.
          rename                  Give a tab a new title.
          reopen                  Bring back the last removed tab of a set.
          history                 List the recent changes to a set, newest first.
          watch                   Print each change to a set as it happens.
          rename-set              Give a whole set a new name.
          remove-set              Delete a whole set with its tabs.
          export                  Print sets as a JSON document for 'tabstore import'.
          import                  Add the sets of a document from 'tabstore export'.
          info                    Show the database path, schema, set count and check.
          help                    Show help for tabstore or one of its subcommands.

          See 'tabstore help <subcommand>' for detailed help.

        """

    static let selectHelp = """
        OVERVIEW: Select a tab; reselecting it changes nothing.

        Prints 'selected I: TITLE', or 'already selected I: TITLE' when the tab was
        already selected (a reselection: nothing is written, still exit 0).

        With --json (updates: the old tab then the new one; empty on a reselection):
          {"set","previousIndex","selectedIndex","changed","updates":[{"index","title","selected"}]}

        USAGE: tabstore select <set> <tab>

        ARGUMENTS:
          <set>                   The name of the tab set.
          <tab>                   An index (0-based; negative counts from the end, so -1
                                  is the last tab) or an exact title.

        OPTIONS:
          --title <title>         Give a <tab> as a title even when it is made of digits
                                  ('--title 1' is the tab titled "1"). Stands where the
                                  <tab> goes.
          --if-revision <revision>
                                  Change nothing and fail (exit 1) unless the set is
                                  still at this revision (see 'list <set> --json' or
                                  'history'); 'add' counts a missing set as revision 0.
          --db <path>             The database file. Default: $TABSTORE_DB, else
                                  $XDG_DATA_HOME/tabstore/tabs.sqlite, else
                                  ~/.local/share/tabstore/tabs.sqlite.
          --json                  Print one line of JSON instead of text; errors too.
          --version               Show the version.
          -h, --help              Show help information.

        """
}
