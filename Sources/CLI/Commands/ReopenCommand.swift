import Store

enum ReopenCommand: TabstoreCommand {
    static let spec = CommandSpec(
        name: "reopen",
        abstract: "Bring back the last removed tab of a set.",
        discussion: """
        The tab goes back at its old index and is selected again if it was selected \
        when removed.

        Prints 'reopened I: TITLE'. With --json, the set:
          {"name","revision","selectedIndex","tabs":[{"index","title","selected"}]}
        """,
        arguments: [.set()]
    )

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String {
        let setName = try arguments.text("set")
        let store = try context.openStore()
        if context.json {
            let set = try storeCall { () throws(TabStoreError) in try store.reopen(in: setName) }
            return JSONOutput.tabSet(set).line
        }
        // Store.reopen returns the set but not which tab came back: read the title it
        // will reopen first (a read changes nothing if the reopen then fails).
        let title = try storeCall { () throws(TabStoreError) in try store.closedTabs(in: setName) }.first
        let set = try storeCall { () throws(TabStoreError) in try store.reopen(in: setName) }
        guard let title, let index = set.tabs.firstIndex(where: { $0.title.utf8.elementsEqual(title.utf8) }) else {
            return "reopened a tab in \(setName)\n"
        }
        return "reopened \(index): \(title)\n"
    }
}
