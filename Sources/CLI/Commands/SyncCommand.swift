import TabStoreKit

enum SyncCommand: TabstoreCommand {
    static let spec = CommandSpec(
        name: "sync",
        abstract: "Push this database's edits to a server and pull the server's.",
        discussion: """
        The database (--db, a file) is a device of SERVER: a postgresql:// URL, or a \
        tabstore file that devices share. A missing database is made once SERVER has \
        opened, and starts with the server's sets; a missing server file is made too, \
        but never again for a device that has synced: that exits 1, as a server that is not \
        where it was (a share not mounted) would be a new, empty one. \
        Its first sync starts the device: its sets go to the server where the server has \
        no set of that name, and where it has one, the server's replaces the device's \
        (with other tabs, printed as refused). \
        From then on every \
        edit, by any program, records its mutation in the file with the edit, and each \
        sync pushes those still pending and pulls what changed on the server. The server \
        applies each mutation once, in order, on its own sets; one that no longer applies \
        there (its tab removed on another device, its title taken) is refused, printed \
        with the reason, and the set is the server's again. Tabs, their order, data and \
        the selected tab are the server's, shared by every device. A sync that cannot \
        reach the server exits 3 and loses nothing: the edits stay pending for the next; \
        an error after the server took some of them starts 'pushed N edits, then:'. \
        'tabstore info' shows what is pending and when the last sync was.

        With --watch, it goes on: each edit of the database and each change on the \
        server (a server's notifications, a file's changes) starts a sync, whose lines \
        are printed when it moved something; a sync that fails says so once and is tried \
        again every 2 seconds, and so does the first one of a device that has synced \
        (a server away for now, offline or a share not mounted yet). Ctrl-C (SIGINT) or \
        SIGTERM ends it with exit 0; an edit not yet pushed then stays pending.

        Prints 'synced with SERVER: pushed N, pulled N sets, N pending', then one line per \
        refusal: 'refused: EDIT: REASON'. With --json:
          {"server","pushed","pulled","pending","refusals":[{"edit","code","reason"}]}
        """,
        arguments: [
            ArgumentSpec(name: "server", kind: .text, help: "The server database: a postgresql:// URL, or a file.", completion: .files),
        ],
        options: [
            OptionSpec(name: "watch", kind: .flag, help: "Keep syncing as the database and the server change, until Ctrl-C."),
        ],
        databaseArgument: "server"
    )

    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult {
        let location = try arguments.text("server")
        if location.isEmpty {
            throw .usage(UsageError(message: "The value '' is invalid for '<server>': it is empty", command: spec.name))
        }
        let deviceLocation = try context.resolvedPath()
        if context.shownLocation(location) == context.shownLocation(deviceLocation) || DatabasePath.isSameFile(location, deviceLocation) {
            throw .usage(UsageError(message: "The server '\(location)' is the database itself", command: spec.name))
        }
        // A server file is opened by its absolute path, so that its messages name it as the
        // sync's lines do.
        let serverLocation = DatabasePath.isServerURL(location) ? location : DatabasePath.absolute(location)
        let server = try SyncServer(opening: context.storeOpener(serverLocation, creating: true))
        let device: TabStore
        do {
            device = try context.openExistingStore()
        } catch .store(.databaseNotFound) {
            // A server without tabstore's tables: making them only to refuse it would change it.
            if DatabasePath.isServerURL(deviceLocation) {
                throw .store(TabStoreError(.syncNeedsAFile(database: context.shownLocation(deviceLocation))))
            }
            // A new device is made once its server has opened: a server that cannot be
            // reached leaves no file behind.
            _ = try storeCall { () throws(TabStoreError) in try server.open(creating: true) }
            device = try context.openOrCreateStore { _ in }
        }
        // The device knows its server by this name: a file by its absolute path, so that
        // it is the same from any folder; a URL without its password.
        var session = SyncSession(device: device, server: server, name: context.shownLocation(location), json: context.json)
        let report = try session.syncOnce()
        var result = RunResult()
        if let failure = failure(of: report) {
            // With --watch, a device that has synced keeps trying: its server may be away for now.
            guard arguments.flag("watch"), report.failure?.deviceHadSynced == true else { throw failure }
            result.standardError = Runner.failure(failure, json: context.json, program: Program.spec).standardError
            session.firstFailed = true
        } else {
            result.standardOutput = output(report, json: context.json)
            // A sync that ends well has recorded in the device that it synced.
            result.savedChange = true
        }
        if arguments.flag("watch") { result.sync = session }
        return result
    }

    /// The error a sync that stopped ends with: after the server settled some of the
    /// device's edits, it says how many, as the error speaks only of the request that
    /// failed; a set damaged on the server says where it is (the device's own check finds
    /// nothing).
    static func failure(of report: TabSyncReport) -> CLIError? {
        guard let failure = report.failure else { return nil }
        guard report.pushed > 0 || failure.server != nil else { return .store(failure.error) }
        return .syncFailed(failure.error, pushed: report.pushed, server: failure.server)
    }

    /// A sync's lines: what it moved, then each refusal; or one line of JSON.
    static func output(_ report: TabSyncReport, json: Bool) -> String {
        if json {
            return JSONValue.object([
                ("server", .string(report.server)), ("pushed", .int(report.pushed)), ("pulled", .int(report.setsPulled)),
                ("pending", .int(report.pending)),
                ("refusals", .array(report.refusals.map { refusal in
                    .object([
                        ("edit", .string(refusal.mutation?.description ?? "mutation \(refusal.number)")),
                        ("code", .string(refusal.code.rawValue)), ("reason", .string(refusal.reason)),
                    ])
                })),
            ]).line
        }
        var text = "synced with \(VisibleText.shown(report.server)): pushed \(report.pushed), pulled \(report.setsPulled) \(report.setsPulled == 1 ? "set" : "sets"), \(report.pending) pending\n"
        for refusal in report.refusals {
            text += "refused: \(VisibleText.shown(refusal.mutation?.description ?? "mutation \(refusal.number)")): \(VisibleText.shown(refusal.reason))\n"
        }
        return text
    }
}

extension TabStore {
    /// Where this device's sync stands; nil for a store that does not sync.
    func syncStatusIfSyncing() throws(TabStoreError) -> TabSyncStatus? {
        do {
            return try syncStatus()
        } catch where error.code == .syncNotStarted {
            return nil
        }
    }
}
