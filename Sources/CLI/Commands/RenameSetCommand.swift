import TabStoreKit

enum RenameSetCommand: TabstoreCommand {
    static let spec = CommandSpec(
        name: "rename-set",
        abstract: "Give a whole set a new name.",
        discussion: """
        Prints 'renamed set OLD to NEW', or 'nothing changed: the set is already named \
        NEW' for its own name (nothing is written, still exit 0). With --json ("changed" \
        false for its own name):
          {"set":NEW,"previousName":OLD,"changed"}
        """,
        arguments: [.set(), ArgumentSpec(name: "new-name", kind: .name, help: "The set's new name.")],
        options: [.ifRevision]
    )

    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult {
        let setName = try arguments.text("set")
        let newName = try arguments.text("new-name")
        let revision = arguments.ifRevision
        let store = try context.openStore()
        let edit = try storeCall { () throws(TabStoreError) in try store.renameSet(setName, to: newName, ifRevision: revision) }
        return RunResult(standardOutput: output(edit, setName: setName, newName: newName, json: context.json), savedChange: edit.event != nil)
    }

    private static func output(_ edit: TabSetEdit, setName: String, newName: String, json: Bool) -> String {
        if json {
            return JSONValue.object([
                ("set", .string(newName)), ("previousName", .string(setName)), ("changed", .bool(edit.event != nil)),
            ]).line
        }
        // No event: the set already had that name.
        if edit.event == nil { return "nothing changed: the set is already named \(VisibleText.shown(newName))\n" }
        return "renamed set \(VisibleText.shown(setName)) to \(VisibleText.shown(newName))\n"
    }
}
