import TabStoreKit

enum SetDataCommand: TabstoreCommand {
    static let spec = CommandSpec(
        name: "set-data",
        abstract: "Replace a tab's data (its payload) with KEY=VALUE entries.",
        discussion: """
        The tab's data becomes exactly the entries given (a later KEY wins); with no \
        entry, it is emptied. Each entry splits at its first '='. At most 4096 bytes \
        of keys and values (UTF-8) in all; a key is not empty.

        Prints 'set N entries on TITLE' ('1 entry' for one), or 'nothing changed: the tab \
        already has this data' (or 'has no data') when it had exactly these entries. With \
        --json, the set:
          \(JSONOutput.tabSetShape)
        """,
        arguments: [
            .set(), .tab,
            ArgumentSpec(
                name: "entry", kind: .text, arity: .zeroOrMore, help: "KEY=VALUE: one key of the data and its value.",
                completion: CompletionSource.none
            ),
        ],
        options: [.title, .index, .id, .ifRevision]
    )

    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult {
        let setName = try arguments.text("set")
        let ref = try arguments.tab("tab")
        var payload: [String: String] = [:]
        for entry in arguments.texts("entry") {
            guard let equals = entry.firstIndex(of: "=") else {
                throw .usage(UsageError(
                    message: "The value \(shown(entry)) is invalid for '<entry>': it has no '=' (KEY=VALUE)",
                    command: spec.name
                ))
            }
            payload[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        let revision = arguments.ifRevision
        let store = try context.openStore()
        let edit = try storeCall { () throws(TabStoreError) in
            try store.setPayload(payload, for: ref, in: setName, ifRevision: revision)
        }
        return RunResult(standardOutput: output(edit, payload: payload, json: context.json), savedChange: edit.event != nil)
    }

    private static func output(_ edit: TabSetEdit, payload: [String: String], json: Bool) -> String {
        if json { return JSONOutput.tabSet(edit.set).line }
        let entries = counted(payload.count, "entry", "entries")
        // No event: the tab already had exactly this data.
        guard case let .payloadChanged(update)? = edit.event else {
            return payload.isEmpty ? "nothing changed: the tab has no data\n" : "nothing changed: the tab already has this data (\(entries))\n"
        }
        return "set \(entries) on \(VisibleText.shown(update.tab.title))\n"
    }
}
