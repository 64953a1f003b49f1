import Store

enum RemoveCommand: TabstoreCommand {
    static let spec = CommandSpec(
        name: "remove",
        abstract: "Remove tabs from a set.",
        discussion: """
        Every TAB is resolved before any is removed, so 'remove main 0 1' removes the \
        first two tabs. When the selected tab goes, its right neighbour (or the new last \
        tab) is selected. 'tabstore reopen' brings removed tabs back.

        Prints 'removed N tabs from SET' ('1 tab' for one). With --json, the set:
          {"name","revision","selectedIndex","tabs":[{"index","title","selected"}]}
        """,
        arguments: [.set(), ArgumentSpec(name: "tab", kind: .tab, arity: .oneOrMore, help: ArgumentSpec.tab.help)],
        options: [.title]
    )

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String {
        let setName = try arguments.text("set")
        let refs = arguments.tabs("tab")
        let store = try context.openStore()
        if context.json {
            let set = try storeCall { () throws(TabStoreError) in try store.remove(refs, from: setName) }
            return JSONOutput.tabSet(set).line
        }
        // Store.remove does not say how many tabs went (refs may name a tab twice), so
        // count before and after; the read changes nothing if the removal then fails.
        let before = try storeCall { () throws(TabStoreError) in try store.tabSet(named: setName) }
        let after = try storeCall { () throws(TabStoreError) in try store.remove(refs, from: setName) }
        let removed = before.tabs.count - after.tabs.count
        return "removed \(counted(removed, "tab", "tabs")) from \(setName)\n"
    }
}
