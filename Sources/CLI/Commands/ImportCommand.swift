import TabStoreKit

enum ImportCommand: TextCommand {
    static let spec = CommandSpec(
        name: "import",
        abstract: "Add the sets of a document from 'tabstore export'.",
        discussion: """
        The whole document is checked before anything is written: a malformed \
        document, or a set that already exists without --replace, writes nothing (exit 1).

        Prints 'imported N sets' ('1 set' for one). With --json:
          {"imported":N,"sets":[NAME,...]}
        """,
        arguments: [ArgumentSpec(name: "file", kind: .text, help: "The document to read; '-' reads standard input.")],
        options: [
            OptionSpec(name: "replace", kind: .flag, help: "Replace the tabs and selection of sets that already exist."),
        ]
    )

    /// Far above any real document (100,000 tabs export to about 3 MB).
    static let maximumDocumentBytes = 64 << 20

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String {
        let path = try arguments.text("file")
        let replace = arguments.flag("replace")
        let bytes: [UInt8]
        do {
            bytes = try readAllBytes(path: path, limit: maximumDocumentBytes)
        } catch {
            let name = path == "-" ? "standard input" : path
            throw .unreadableInput("cannot read \(name): \(errorMessage(error.code))")
        }
        // Read the document before opening the store: a bad one must not even create the database.
        let document = try storeCall { () throws(TabStoreError) in try TabStoreDocument(json: bytes) }
        let store = try context.openOrCreateStore()
        let count = try storeCall { () throws(TabStoreError) in try store.importDocument(document, replace: replace) }
        if context.json {
            return JSONValue.object([
                ("imported", .int(count)),
                ("sets", .array(document.sets.map { .string($0.name) })),
            ]).line
        }
        return "imported \(counted(count, "set", "sets"))\n"
    }
}
