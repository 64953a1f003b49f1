import TabStoreKit

enum InfoCommand: TabstoreCommand {
    static let spec = CommandSpec(
        name: "info",
        abstract: "Show the database path, schema, set count and check.",
        discussion: """
        The check is SQLite's 'PRAGMA quick_check': 'ok' for a sound file; on a server \
        (--db postgresql://...) it is a query over the tab rules' invariants, and the \
        first line names the server instead of a path (never its password). A damaged file \
        (or a server database whose rows break the rules) exits 3 with one line saying so; \
        --verbose (or --json) also prints what the check found. A database that does not \
        exist yet (on a server: has no tabstore tables yet) exits 1, so 'tabstore info && \
        echo healthy' says healthy only for a sound database.

        With --json:
          {"path","schemaVersion","setCount","quickCheck"}
        """,
        options: [
            OptionSpec(name: "verbose", kind: .flag, help: "Print the details even when the check finds the file damaged."),
        ]
    )

    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult {
        let store = try context.openExistingStore()
        let info = try storeCall { () throws(TabStoreError) in try store.info() }
        let details = context.json ? json(info) : text(info)
        if info.quickCheck == "ok" {
            return RunResult(standardOutput: details)
        }
        // A file fails SQLite's quick_check (corrupt); a server's rows break the tab rules.
        let problem: CLIError = DatabasePath.isServerURL(info.path)
            ? .checkFailed(server: info.path, findings: info.quickCheck) : .store(.corrupt(path: info.path))
        var damaged = Runner.failure(problem, json: context.json, program: context.program)
        if context.json || arguments.flag("verbose") {
            damaged.standardOutput = details
        }
        return damaged
    }

    private static func json(_ info: StoreInfo) -> String {
        JSONValue.object([
            ("path", .string(info.path)),
            ("schemaVersion", .int(info.schemaVersion)),
            ("setCount", .int(info.setCount)),
            ("quickCheck", .string(info.quickCheck)),
        ]).line
    }

    private static func text(_ info: StoreInfo) -> String {
        // A server is named by its URL (user, host, port, database; never a password),
        // and checked by a query over the rules' invariants rather than quick_check.
        let isServer = DatabasePath.isServerURL(info.path)
        let rows = [
            (isServer ? "server" : "path", info.path),
            ("schema version", String(info.schemaVersion)),
            ("sets", String(info.setCount)),
            (isServer ? "check" : "quick_check", info.quickCheck),
        ]
        let keyWidth = rows.map { $0.0.count + 1 }.max() ?? 0
        return rows.map { key, value in "\(padded(key + ":", to: keyWidth))  \(value)\n" }.joined()
    }
}
