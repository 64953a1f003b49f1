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
        savesChanges: true,
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
        // The device knows its server by this name: a file by its absolute path, so that
        // it is the same from any folder; a URL without its password.
        var shownServer = context.shownLocation(location)
        // A server file is opened by its absolute path, so that its messages name it as the
        // sync's lines do.
        let serverLocation = DatabasePath.isServerURL(location) ? location : DatabasePath.absolute(location)
        let existing: TabStore?
        do {
            existing = try context.openExistingStore()
        } catch .store(.databaseNotFound) {
            existing = nil
        }
        // The file it syncs with, named otherwise (`..`, a symbolic link, another mount of
        // it), is that server, known by the name it had.
        if let existing, let known = try storeCall({ () throws(TabStoreError) in try existing.syncStatusIfSyncing()?.server }),
           known != shownServer, DatabasePath.isSameFile(known, location) {
            shownServer = known
        }
        let device: TabStore
        let server: TabStore
        let serverOpener: StoreOpener
        if let existing {
            // Checked before the server is opened (or made): a device is a file, and syncs
            // with one server.
            _ = try storeCall { () throws(TabStoreError) in try existing.checkCanSync(with: shownServer) }
            device = existing
            // A server this device has synced with is never made again: one missing (a share
            // not mounted, a file moved) would be a new, empty server, which knows none of
            // the device's edits and would wait for them forever.
            let hasSynced = try storeCall { () throws(TabStoreError) in try existing.syncStatusIfSyncing()?.lastSynced != nil }
            if hasSynced, arguments.flag("watch") {
                return try watchWhileTheServerMayBeAway(existing, server: context.storeOpener(serverLocation, creating: false), shownServer, json: context.json)
            }
            serverOpener = try context.storeOpener(serverLocation, creating: !hasSynced)
            server = try serverOpener()
        } else {
            // A server without tabstore's tables: making them only to refuse it would change it.
            if DatabasePath.isServerURL(deviceLocation) {
                throw .store(TabStoreError(.syncNeedsAFile(database: context.shownLocation(deviceLocation))))
            }
            // A new device is made once its server has opened: a server that cannot be
            // reached leaves no file behind.
            serverOpener = try context.storeOpener(serverLocation, creating: true)
            server = try serverOpener()
            device = try context.openOrCreateStore { _ in }
        }
        try storeCall { () throws(TabStoreError) in
            // Before the device starts: a refused server leaves it as it was.
            try server.checkCanServe()
            try device.startSync(server: shownServer)
        }
        let report = try sync(device, with: server, shownServer: shownServer)
        var result = RunResult(standardOutput: output(report, server: shownServer, json: context.json))
        if arguments.flag("watch") {
            result.sync = SyncSession(device: device, server: SyncServer(server, opener: serverOpener), shownServer: shownServer, json: context.json)
        }
        return result
    }

    /// `--watch` for a device that has synced with this server: one the server is away
    /// from for now (offline, a share not mounted yet) says why its first sync failed, and
    /// keeps trying, as after any failed sync.
    private static func watchWhileTheServerMayBeAway(_ device: TabStore, server: StoreOpener, _ shownServer: String, json: Bool) -> RunResult {
        var session = SyncSession(device: device, server: SyncServer(opening: server), shownServer: shownServer, json: json)
        var result = RunResult()
        do {
            result.standardOutput = output(try session.syncOnce(), server: shownServer, json: json)
        } catch {
            result.standardError = Runner.failure(error, json: json, program: Program.spec).standardError
            session.firstFailed = true
        }
        result.sync = session
        return result
    }

    /// One sync of a device that has started, with `server` as people know it (`shownServer`).
    /// A failure after the server settled some of the device's edits says how many, as the
    /// error speaks only of the request that failed; a set damaged on the server says
    /// where it is (the device's own check finds nothing).
    static func sync(_ device: TabStore, with server: TabStore, shownServer: String) throws(CLIError) -> TabSyncReport {
        let settledBefore = try storeCall { () throws(TabStoreError) in try device.syncStatus().settled }
        let answering = AnsweringServer(server)
        do {
            return try device.sync(with: answering)
        } catch {
            let pushed = ((try? device.syncStatus().settled) ?? settledBefore) - settledBefore
            let onServer = answering.failed && error.code == .damagedSet
            guard pushed > 0 || onServer else { throw .store(error) }
            throw .syncFailed(error, pushed: pushed, server: onServer ? shownServer : nil)
        }
    }

    /// A sync's lines: what it moved, then each refusal; or one line of JSON.
    static func output(_ report: TabSyncReport, server shownServer: String, json: Bool) -> String {
        if json {
            return JSONValue.object([
                ("server", .string(shownServer)), ("pushed", .int(report.pushed)), ("pulled", .int(report.setsPulled)),
                ("pending", .int(report.pending)),
                ("refusals", .array(report.refusals.map { refusal in
                    .object([
                        ("edit", .string(refusal.mutation?.description ?? "mutation \(refusal.number)")),
                        ("code", .string(refusal.code.rawValue)), ("reason", .string(refusal.reason)),
                    ])
                })),
            ]).line
        }
        var text = "synced with \(VisibleText.shown(shownServer)): pushed \(report.pushed), pulled \(report.setsPulled) \(report.setsPulled == 1 ? "set" : "sets"), \(report.pending) pending\n"
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

/// A server store answering a device's sync, noting whether an error came from it.
private final class AnsweringServer: TabSyncServer {
    let store: TabStore
    private(set) var failed = false

    init(_ store: TabStore) {
        self.store = store
    }

    func push(_ request: TabSyncPush) throws(TabStoreError) -> TabSyncPushResult {
        try noting { () throws(TabStoreError) in try store.push(request) }
    }

    func pull(_ request: TabSyncPull) throws(TabStoreError) -> TabSyncPullResult {
        try noting { () throws(TabStoreError) in try store.pull(request) }
    }

    private func noting<Answer>(_ request: () throws(TabStoreError) -> Answer) throws(TabStoreError) -> Answer {
        do {
            return try request()
        } catch {
            failed = true
            throw error
        }
    }
}
