import TabStoreKit

enum HistoryCommand: TextCommand {
    static let defaultLimit = 25

    static let spec = CommandSpec(
        name: "history",
        abstract: "List the recent changes to a set, newest first.",
        discussion: """
        One line per change: the set's revision after it, the UTC time (ISO 8601, to the \
        millisecond) and what happened, with indices as they stood then, e.g.
          4  2026-11-30T03:15:22.123Z  selected 2: Reviews (was 0: Home)
        A removed or reopened tab that was the selected one is marked '(selected)'. \
        Reselections write nothing, so they have no history. The database keeps the \
        last 10,000 changes of all sets. Revisions are never reused for a name, so each \
        appears once, decreasing. After 'rename-set a b', 'history b' shows the set's \
        changes made under 'a' too; otherwise, and for a removed set, a name's history \
        holds every set that had the name.

        With --json:
          {"set","changes":[{"revision","time","kind","event"}]}
        The event object of each kind:
        \(ChangeOutput.eventShapes)
        """,
        arguments: [.set()],
        options: [
            OptionSpec(
                name: "limit", kind: .integer(valueName: "count", minimum: 1),
                help: "Show at most this many changes, 1 or more. Default: \(defaultLimit)."
            ),
        ]
    )

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String {
        let setName = try arguments.text("set")
        let limit = arguments.integerOption("limit") ?? defaultLimit
        let store = try context.openStore()
        let changes = try storeCall { () throws(TabStoreError) in try store.history(of: setName, limit: limit) }
        if changes.isEmpty {
            // A removed set still has history; only a name never used is an error.
            _ = try storeCall { () throws(TabStoreError) in try store.tabSet(named: setName) }
        }
        if context.json {
            return JSONValue.object([
                ("set", .string(setName)),
                ("changes", .array(changes.map { ChangeOutput.json($0, includingSet: false) })),
            ]).line
        }
        let revisionWidth = changes.map { String($0.revision).count }.max() ?? 0
        return changes.map { ChangeOutput.text($0, revisionWidth: revisionWidth) + "\n" }.joined()
    }
}
