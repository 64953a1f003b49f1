import TabStoreKit

enum InfoCommand: TabstoreCommand {
    static let spec = CommandSpec(
        name: "info",
        abstract: "Show the database path, schema, set count and check.",
        discussion: """
        The check is SQLite's 'PRAGMA integrity_check' of a file (it reads the whole \
        file: every index against its table), then a check of the tab \
        rules on every set (positions contiguous, one selected tab of the set's own, the \
        revision its newest change's, every tab a valid id; a syncing file's pending edits \
        readable), on a file and on a server alike: 'ok' when both \
        find nothing. On a server (--db postgresql://...) the first line names the server \
        instead of a path (never its password). A damaged file, or a database whose rows \
        break the rules, exits 3 with one line naming the first finding; --verbose (or --json) also \
        prints what the checks found. A database that does not \
        exist yet (on a server: has no tabstore tables yet) exits 1, so 'tabstore info && \
        echo healthy' says healthy only for a sound database.

        A file that syncs ('tabstore sync') has a 'sync:' line: its server, how many \
        edits are pending, when it last synced and how many edits the server refused.

        With --json ("path" for a file, "server" for a server, as the text says; "sync" \
        only for a file that syncs):
          {"path","schemaVersion","setCount","check","sync":{"server","pending","lastSynced","refused"}}
        """,
        options: [
            OptionSpec(name: "verbose", kind: .flag, help: "Print the details even when the check finds the file damaged."),
        ]
    )

    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult {
        let store = try context.openExistingStore()
        let (info, sync) = try storeCall { () throws(TabStoreError) in (try store.info(), try store.syncStatusIfSyncing()) }
        let details = context.json ? json(info, sync: sync) : text(info, sync: sync)
        if info.consistencyCheck == "ok" {
            return RunResult(standardOutput: details)
        }
        // A file that fails integrity_check is corrupt; rows that break the rules say which.
        let problem: CLIError = info.isDamaged
            ? .damaged(database: info.location, finding: firstFinding(info.storageCheck))
            : .checkFailed(database: info.location, findings: info.ruleProblems.joined(separator: "; "))
        var damaged = Runner.failure(problem, json: context.json, program: context.program)
        if context.json || arguments.flag("verbose") {
            damaged.standardOutput = details
        }
        return damaged
    }

    /// The first finding of SQLite's check (its findings are joined by "; ", and a finding
    /// may go on over lines), without the line naming the schema it checked (`*** in
    /// database main ***`): one line for the error.
    private static func firstFinding(_ check: String) -> String {
        let first = check.split(separator: "\n").first { !$0.hasPrefix("*** in database ") } ?? Substring(check)
        return String(first.prefix { $0 != ";" })
    }

    private static func json(_ info: StoreInfo, sync: TabSyncStatus?) -> String {
        var fields: [(String, JSONValue)] = [
            (locationName(info), .string(info.location)),
            ("schemaVersion", .int(info.schemaVersion)),
            ("setCount", .int(info.setCount)),
            ("check", .string(info.consistencyCheck)),
        ]
        if let sync {
            fields.append(("sync", .object([
                ("server", .string(sync.server)), ("pending", .int(sync.pending)),
                ("lastSynced", sync.lastSynced.map { .string(UTCTime.iso8601(milliseconds: $0)) } ?? .null),
                ("refused", .int(sync.refusals.count)),
            ])))
        }
        return JSONValue.object(fields).line
    }

    /// `SERVER, N pending, last TIME, N refused`.
    private static func syncLine(_ sync: TabSyncStatus) -> String {
        let last = sync.lastSynced.map { "last synced " + UTCTime.iso8601(milliseconds: $0) } ?? "never synced"
        return "with \(sync.server), \(sync.pending) pending, \(last), \(sync.refusals.count) refused"
    }

    /// A file is a `path`, a server its URL, `server`: one name in text and in JSON.
    private static func locationName(_ info: StoreInfo) -> String {
        DatabasePath.isServerURL(info.location) ? "server" : "path"
    }

    private static func text(_ info: StoreInfo, sync: TabSyncStatus?) -> String {
        // A server is named by its URL (user, host, port, database; never a password). Each
        // value is made visible whole, a line break in a name included; SQLite's check alone
        // reports on several lines, each made visible on its own.
        let rows: [(String, [String])] = [
            (locationName(info), [info.location]),
            ("schema version", [String(info.schemaVersion)]),
            ("sets", [String(info.setCount)]),
            ("check", info.consistencyCheck.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)),
        ] + (sync.map { [("sync", [syncLine($0)])] } ?? [])
        let keyWidth = rows.map { $0.0.count + 1 }.max() ?? 0
        return rows.map { key, lines in
            "\(padded(key + ":", to: keyWidth))  \(lines.map { VisibleText.shown($0) }.joined(separator: "\n"))\n"
        }.joined()
    }
}
