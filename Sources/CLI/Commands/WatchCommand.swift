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

        On a server, a database without tabstore's tables yet is waited for (the notice \
        says so) and every change from its first 'add' on is printed. While the server is \
        away, watch says so once on a terminal and again when it is back, then prints what \
        it missed; a database dropped, or access revoked, ends it (exit 3).
        """,
        arguments: [.set("The set to watch; every set when omitted.").withArity(.optional)]
    )

    /// Subscribes, checks the set, and hands `main` the session to run.
    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult {
        let setName = arguments.optionalText("set")
        let location = try context.resolvedPath()
        let source: WatchSession.Source
        if let reason = ThreadProbe.refusal() { throw .resourceRefused("cannot watch: the system will not start a thread (\(reason))") }
        // libdispatch traps when it cannot make its event loop: have it made now, while
        // descriptors are free, before the store takes its own.
        guard TabStore.observationCanStart(sparing: 0) else {
            throw .resourceRefused("cannot watch: no file descriptor is free (this process has too many files open)")
        }
        do throws(CLIError) {
            let store = try context.openExistingStore()
            // A file read as it was when opened would show no change: said now, not waited on.
            if let unseen = store.changesUnseen { throw CLIError.store(unseen) }
            // Subscribe before looking the set up, so that nothing in between is missed.
            let changes = setName.map { store.changes(in: $0) } ?? store.changes()
            if let setName {
                // A typo should not wait forever in silence.
                _ = try storeCall { () throws(TabStoreError) in try store.tabSet(named: setName) }
            }
            source = .store(store, changes)
        } catch .store(.databaseNotFound) where DatabasePath.isServerURL(location) {
            // Watchers of a server may start before the first 'add' makes the tables.
            source = .tablesToCome(url: location, options: try context.serverOptions(.init(createsMissingDatabase: false), for: location))
        }
        let waiting = if case .tablesToCome = source { true } else { false }
        let shownSet = setName.map(VisibleText.shown) ?? "all sets"
        let notice = context.json
            ? JSONValue.object([("watching", JSONOutput.optional(setName))] + (waiting ? [("waitingForTables", .bool(true))] : [])).line
            : "watching \(shownSet) (Ctrl-C to stop)\(waiting ? "; no tabstore tables yet, waiting for them" : "")\n"
        let server: ServerSupport? = if case let .opened(support) = context.servers { support } else { nil }
        return RunResult(standardError: notice, watch: WatchSession(source: source, server: server, setName: setName, json: context.json))
    }
}
