import TabStoreKit

enum RemoveSetCommand: TabstoreCommand {
    static let spec = CommandSpec(
        name: "remove-set",
        abstract: "Delete a whole set with its tabs.",
        discussion: """
        Prints 'removed set NAME'. With --json:
          {"set":NAME,"removed":true}
        """,
        arguments: [.set()],
        options: [.ifRevision]
    )

    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult {
        let setName = try arguments.text("set")
        let revision = arguments.ifRevision
        let store = try context.openStore()
        try storeCall { () throws(TabStoreError) in try store.removeSet(setName, ifRevision: revision) }
        // A removal that returns has removed the set.
        let text = context.json
            ? JSONValue.object([("set", .string(setName)), ("removed", .bool(true))]).line
            : "removed set \(VisibleText.shown(setName))\n"
        return RunResult(standardOutput: text, savedChange: true)
    }
}
