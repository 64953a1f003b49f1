import TabStoreKit

enum ReopenCommand: TabstoreCommand {
    static let spec = CommandSpec(
        name: "reopen",
        abstract: "Bring back the last removed tab of a set.",
        discussion: """
        The tab goes back at its old index and is selected again if it was selected \
        when removed.

        Prints 'reopened I: TITLE'. With --json, the set:
          \(JSONOutput.tabSetShape)
        """,
        arguments: [.set()],
        options: [.ifRevision]
    )

    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult {
        let setName = try arguments.text("set")
        let revision = arguments.ifRevision
        let store = try context.openStore()
        let edit = try storeCall { () throws(TabStoreError) in try store.reopen(in: setName, ifRevision: revision) }
        return RunResult(standardOutput: output(edit, setName: setName, json: context.json), savedChange: edit.event != nil)
    }

    private static func output(_ edit: TabSetEdit, setName: String, json: Bool) -> String {
        if json { return JSONOutput.tabSet(edit.set).line }
        guard case let .reopened(tab)? = edit.event else { return "reopened a tab in \(VisibleText.shown(setName))\n" }
        return "reopened \(tab.index): \(VisibleText.shown(tab.tab.title))\n"
    }
}
