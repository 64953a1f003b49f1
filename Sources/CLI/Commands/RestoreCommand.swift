import TabStoreKit

enum RestoreCommand: TextCommand {
    static let spec = CommandSpec(
        name: "restore",
        abstract: "Print the selected tab's index, to restore at launch.",
        discussion: """
        Prints the index alone, for scripts: INDEX=$(tabstore restore main). An empty \
        set has no selection: exit 1.

        With --json:
          {"set","selectedIndex","title"}
        """,
        arguments: [.set()]
    )

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String {
        let setName = try arguments.text("set")
        let store = try context.openStore()
        let selected = try storeCall { () throws(TabStoreError) in try store.selectedTab(in: setName) }
        if context.json {
            return JSONValue.object([
                ("set", .string(setName)),
                ("selectedIndex", .int(selected.index)),
                ("title", .string(selected.tab.title)),
            ]).line
        }
        return "\(selected.index)\n"
    }
}
