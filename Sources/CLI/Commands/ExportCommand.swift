import TabStoreKit

enum ExportCommand: TextCommand {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Print sets as a JSON document for 'tabstore import'.",
        discussion: """
        Always JSON, pretty-printed, with or without --json:
          {"format":"tabstore","version":1,"sets":[{"name","selectedIndex","tabs":[TITLE,...]}]}

        To copy sets to another database:
          tabstore export | tabstore --db OTHER import - --replace
        """,
        arguments: [
            ArgumentSpec(name: "set", kind: .text, arity: .zeroOrMore, help: "The sets to export, in this order; all sets, sorted by name, when omitted."),
        ]
    )

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String {
        let setNames = arguments.texts("set")
        let store = try context.openStore()
        let document = try storeCall { () throws(TabStoreError) in try store.export(setNames) }
        return document.json() + "\n"
    }
}
