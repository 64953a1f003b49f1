import TabStoreKit

enum RemoveSetCommand: TextCommand {
    static let spec = CommandSpec(
        name: "remove-set",
        abstract: "Delete a whole set with its tabs.",
        discussion: """
        Prints 'removed set NAME'. With --json:
          {"set":NAME,"removed":true}
        """,
        arguments: [.set()],
        options: [.ifRevision],
        savesChanges: true
    )

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String {
        let setName = try arguments.text("set")
        let revision = arguments.ifRevision
        let store = try context.openStore()
        try storeCall { () throws(TabStoreError) in try store.removeSet(setName, ifRevision: revision) }
        if context.json {
            return JSONValue.object([("set", .string(setName)), ("removed", .bool(true))]).line
        }
        return "removed set \(VisibleText.shown(setName))\n"
    }
}
