import TabStoreKit

enum RenameCommand: TabstoreCommand {
    static let spec = CommandSpec(
        name: "rename",
        abstract: "Give a tab a new title.",
        discussion: """
        Prints 'renamed OLD to NEW', or 'nothing changed: the tab is already titled NEW' \
        when it was (nothing is written, still exit 0). With --json, the set:
          \(JSONOutput.tabSetShape)
        """,
        arguments: [
            .set(), .tab,
            ArgumentSpec(name: "new-title", kind: .title, help: "The new title; taken as a title even when made of digits."),
        ],
        options: [.title, .index, .id, .ifRevision]
    )

    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult {
        let setName = try arguments.text("set")
        let ref = try arguments.tab("tab")
        let newTitle = try arguments.text("new-title")
        let revision = arguments.ifRevision
        let store = try context.openStore()
        let edit = try storeCall { () throws(TabStoreError) in try store.rename(ref, to: newTitle, in: setName, ifRevision: revision) }
        return RunResult(standardOutput: output(edit, newTitle: newTitle, json: context.json), savedChange: edit.event != nil)
    }

    private static func output(_ edit: TabSetEdit, newTitle: String, json: Bool) -> String {
        if json { return JSONOutput.tabSet(edit.set).line }
        // No event: the tab already had that title.
        guard case let .renamed(_, oldTitle, _)? = edit.event else {
            return "nothing changed: the tab is already titled \(VisibleText.shown(newTitle))\n"
        }
        return "renamed \(VisibleText.shown(oldTitle)) to \(VisibleText.shown(newTitle))\n"
    }
}
