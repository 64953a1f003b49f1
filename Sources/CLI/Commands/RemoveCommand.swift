import TabStoreKit

enum RemoveCommand: TabstoreCommand {
    static let spec = CommandSpec(
        name: "remove",
        abstract: "Remove tabs from a set.",
        discussion: """
        Every TAB is resolved before any is removed, so 'remove main 0 1' removes the \
        first two tabs. When the selected tab goes, its right neighbour (or the new last \
        tab) is selected. 'tabstore reopen' brings removed tabs back.

        Prints 'removed N tabs from SET' ('1 tab' for one). With --json, the set:
          \(JSONOutput.tabSetShape)
        """,
        arguments: [.set(), ArgumentSpec(name: "tab", kind: .tab, arity: .oneOrMore, help: ArgumentSpec.tab.help)],
        options: [.title, .index, .id, .ifRevision]
    )

    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult {
        let setName = try arguments.text("set")
        let refs = arguments.tabs("tab")
        let revision = arguments.ifRevision
        let store = try context.openStore()
        let edit = try storeCall { () throws(TabStoreError) in try store.remove(refs, from: setName, ifRevision: revision) }
        return RunResult(standardOutput: output(edit, setName: setName, json: context.json), savedChange: edit.event != nil)
    }

    private static func output(_ edit: TabSetEdit, setName: String, json: Bool) -> String {
        if json { return JSONOutput.tabSet(edit.set).line }
        guard case let .removed(tabs)? = edit.event else { return "removed 0 tabs from \(VisibleText.shown(setName))\n" }
        return "removed \(counted(tabs.count, "tab", "tabs")) from \(VisibleText.shown(setName))\n"
    }
}
