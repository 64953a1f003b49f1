import TabStoreKit

enum SelectCommand: TabstoreCommand {
    static let spec = CommandSpec(
        name: "select",
        abstract: "Select a tab; reselecting it changes nothing.",
        discussion: """
        Prints 'selected I: TITLE', or 'already selected I: TITLE' when the tab was \
        already selected (a reselection: nothing is written, still exit 0).

        With --json (updates: the old tab then the new one; empty on a reselection):
          {"set","previousIndex","selectedIndex","changed","updates":[{"index","title","selected"}]}
        """,
        arguments: [.set(), .tab],
        options: [.title, .index, .id, .ifRevision]
    )

    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult {
        let setName = try arguments.text("set")
        let ref = try arguments.tab("tab")
        let revision = arguments.ifRevision
        let store = try context.openStore()
        // The output names only what changed: the set as it now stands is not worked out.
        let change = try storeCall { () throws(TabStoreError) in try store.selectOnly(ref, in: setName, ifRevision: revision) }
        // A reselection writes nothing.
        return RunResult(standardOutput: output(change, json: context.json), savedChange: !change.isReselection)
    }

    private static func output(_ change: Selection, json: Bool) -> String {
        if json {
            return JSONValue.object([
                ("set", .string(change.setName)),
                ("previousIndex", .int(change.previousIndex)),
                ("selectedIndex", .int(change.selectedIndex)),
                ("changed", .bool(!change.isReselection)),
                ("updates", .array(change.updates.map { JSONOutput.tab(index: $0.index, $0.tab) })),
            ]).line
        }
        let verb = change.isReselection ? "already selected" : "selected"
        return "\(verb) \(change.selectedIndex): \(VisibleText.shown(change.selectedTab.title))\n"
    }
}
