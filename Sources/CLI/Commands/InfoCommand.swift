import TabStoreKit

enum InfoCommand: TextCommand {
    static let spec = CommandSpec(
        name: "info",
        abstract: "Show the database path, schema, set count and check.",
        discussion: """
        The check is SQLite's 'PRAGMA quick_check': 'ok' for a sound file.

        With --json:
          {"path","schemaVersion","setCount","quickCheck"}
        """
    )

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String {
        let store = try context.openStore()
        let info = try storeCall { () throws(TabStoreError) in try store.info() }
        if context.json {
            return JSONValue.object([
                ("path", .string(info.path)),
                ("schemaVersion", .int(info.schemaVersion)),
                ("setCount", .int(info.setCount)),
                ("quickCheck", .string(info.quickCheck)),
            ]).line
        }
        let rows = [
            ("path", info.path),
            ("schema version", String(info.schemaVersion)),
            ("sets", String(info.setCount)),
            ("quick_check", info.quickCheck),
        ]
        let keyWidth = rows.map { $0.0.count + 1 }.max() ?? 0
        return rows.map { key, value in "\(padded(key + ":", to: keyWidth))  \(value)\n" }.joined()
    }
}
