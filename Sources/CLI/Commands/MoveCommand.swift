import TabStoreKit

enum MoveCommand: TabstoreCommand {
    static let spec = CommandSpec(
        name: "move",
        abstract: "Move a tab; the selection stays on the same tab.",
        discussion: """
        TO is the index the tab ends at; negative counts from the end, so -1 moves it \
        last.

        Prints 'moved TITLE to TO', or 'nothing changed: TITLE is already at TO' when \
        it was (nothing is written, still exit 0). With --json, the set:
          \(JSONOutput.tabSetShape)
        """,
        arguments: [
            .set(), .tab,
            ArgumentSpec(name: "to", kind: .index, help: "The tab's final index; negative counts from the end."),
        ],
        options: [.title, .index, .id, .ifRevision]
    )

    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult {
        let setName = try arguments.text("set")
        let ref = try arguments.tab("tab")
        let destination = try arguments.index("to")
        let revision = arguments.ifRevision
        let store = try context.openStore()
        let edit = try storeCall { () throws(TabStoreError) in
            try destination.naming { () throws(TabStoreError) in try store.move(ref, to: destination.value, in: setName, ifRevision: revision) }
        }
        return RunResult(standardOutput: output(edit, destination: destination.value, json: context.json), savedChange: edit.event != nil)
    }

    private static func output(_ edit: TabSetEdit, destination: Int, json: Bool) -> String {
        if json { return JSONOutput.tabSet(edit.set).line }
        if case let .moved(title, _, to)? = edit.event { return "moved \(VisibleText.shown(title)) to \(to)\n" }
        // No event: the tab already stood at the destination, so it is the tab there.
        let index = destination < 0 ? destination + edit.tabs.count : destination
        let title = edit.tabs.indices.contains(index) ? VisibleText.shown(edit.tabs[index].title) : "the tab"
        return "nothing changed: \(title) is already at \(index)\n"
    }
}
