import TabStoreKit

enum WatchCommand: TabstoreCommand {
    static let spec = CommandSpec(
        name: "watch",
        abstract: "Print each change to a set as it happens.",
        discussion: """
        Runs until interrupted (Ctrl-C, SIGINT or SIGTERM), then exits 0. Changes made \
        by other processes show up within about 50 ms. Reselections show up only in the \
        process that makes them: they write nothing. Follows the set when it is renamed.

        Prints 'watching SET (Ctrl-C to stop)' on standard error once it is listening, \
        then one line per change on standard output, as 'history' shows them (without \
        aligning the revision); without SET each line starts with the set's name. With \
        --json, the notice is {"watching":SET} (null for all sets) and each change one line:
          {"set","revision","time","kind","event"}
        The event object of each kind:
        \(ChangeOutput.eventShapes)
        """,
        arguments: [.set("The set to watch; every set when omitted.").withArity(.optional)]
    )

    /// Subscribes, checks the set, and hands `main` the session to run.
    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult {
        let setName = arguments.optionalText("set")
        let store = try context.openExistingStore()
        // Subscribe before looking the set up, so that nothing in between is missed.
        let changes = setName.map { store.changes(in: $0) } ?? store.changes()
        if let setName {
            // A typo should not wait forever in silence.
            _ = try storeCall { () throws(TabStoreError) in try store.tabSet(named: setName) }
        }
        let notice = context.json
            ? JSONValue.object([("watching", JSONOutput.optional(setName))]).line
            : "watching \(setName.map { escapingControlCharacters($0) } ?? "all sets") (Ctrl-C to stop)\n"
        return RunResult(
            standardError: notice,
            watch: WatchSession(store: store, changes: changes, setName: setName, json: context.json)
        )
    }
}
