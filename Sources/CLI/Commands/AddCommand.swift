import TabStoreKit

enum AddCommand: TabstoreCommand {
    static let spec = CommandSpec(
        name: "add",
        abstract: "Add tabs to a set, creating the set when missing.",
        discussion: """
        The tabs go at the end, or from INDEX on with --at. Into an empty set the first \
        new tab becomes the selected one. Titles are taken as they are, digits included. \
        With no title, only creates the set.

        Prints 'added N tabs to SET' ('1 tab' for one); with no title, 'created set SET \
        (no tabs)', or 'nothing changed: no titles to add to SET' when it exists. With \
        --json, the set:
          \(JSONOutput.tabSetShape)
        """,
        arguments: [
            .set("The set to add to; created when missing."),
            ArgumentSpec(name: "title", kind: .title, arity: .zeroOrMore, help: "Titles of the new tabs, in order."),
        ],
        options: [
            OptionSpec(
                name: "at", kind: .index(valueName: "index"),
                help: "Where the first new tab goes: 0...count; negative counts from the end, so -1 (the default) appends."
            ),
            .ifRevision,
        ]
    )

    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult {
        let setName = try arguments.text("set")
        let titles = arguments.texts("title")
        let index = arguments.indexOption("at") ?? TypedIndex("-1")
        let revision = arguments.ifRevision
        let add = { (store: TabStore) throws(TabStoreError) -> TabSetEdit in
            try index.naming { () throws(TabStoreError) in
                try store.add(titles, to: setName, at: index.value, ifRevision: revision, creatingSet: true)
            }
        }
        let store = try context.openOrCreateStore { store throws(TabStoreError) in _ = try add(store) }
        let edit = try storeCall { () throws(TabStoreError) in try add(store) }
        return RunResult(standardOutput: output(edit, titles: titles, setName: setName, json: context.json), savedChange: edit.event != nil)
    }

    private static func output(_ edit: TabSetEdit, titles: [String], setName: String, json: Bool) -> String {
        if json { return JSONOutput.tabSet(edit.set).line }
        if titles.isEmpty {
            // No event: the set was there already and nothing was added.
            let shownSet = VisibleText.shown(setName)
            return edit.event == nil ? "nothing changed: no titles to add to \(shownSet)\n" : "created set \(shownSet) (no tabs)\n"
        }
        return "added \(counted(titles.count, "tab", "tabs")) to \(VisibleText.shown(setName))\n"
    }
}
