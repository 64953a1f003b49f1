import TabStoreKit

enum ImportCommand: TabstoreCommand {
    static let spec = CommandSpec(
        name: "import",
        abstract: "Add the sets of a document from 'tabstore export'.",
        discussion: """
        The whole document is checked before anything is written: a malformed \
        document, or a set that already exists without --replace, writes nothing (exit 1).
        When standard error is a terminal, an import that takes more than about half a \
        second shows its progress there (not with --json). A document may be up to 1 GiB.

        With --replace, a set already as in the document is not written (no new \
        revision, no history), so importing the same document again changes nothing.

        Prints 'imported N sets' ('1 set' for one), 'imported N sets (M unchanged)' when \
        some were already as in the document, or 'unchanged (M sets already as in the \
        document)' when all were. With --json:
          {"imported":N,"unchanged":M,"sets":[NAME,...]}
        """,
        arguments: [ArgumentSpec(name: "file", kind: .text, help: "The document to read; '-' reads standard input.", completion: .files)],
        options: [
            OptionSpec(name: "replace", kind: .flag, help: "Replace the tabs and selection of sets that already exist."),
        ]
    )

    /// Far above any real document (100,000 tabs export to about 3 MB; with the largest
    /// payload each, about 400 MB), yet a bound: `import /dev/zero` must end.
    static let maximumDocumentBytes = 1 << 30

    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult {
        let path = try arguments.text("file")
        let replace = arguments.flag("replace")
        // Started before reading: a long read and check count toward the half second.
        let progress = ProgressLine.onStandardError(label: "import", unit: "tabs", json: context.json)
        defer { progress.finish() }
        let name = path == "-" ? "standard input" : path
        let bytes: [UInt8]
        do {
            bytes = try readAllBytes(path: path, limit: maximumDocumentBytes)
        } catch {
            if error.isOutOfMemory { throw .resourceRefused("cannot import \(name): not enough memory can be had to read it") }
            let reason = error.isOverLimit ? "it is larger than \(maximumDocumentBytes >> 30) GiB, the most an import reads" : errorMessage(error.code)
            throw .unreadableInput("cannot read \(name): \(reason)")
        }
        // Parsing and importing hold the document several times over: ask for 16 times its
        // size, above the peak an import reaches.
        guard memoryIsAvailable(16 * bytes.count) else {
            throw .resourceRefused("cannot import \(name): not enough memory can be had for a document of \(bytes.count >> 20) MiB (about \((16 * bytes.count) >> 20) MiB needed)")
        }
        // Read the document before opening the store: a bad one must not even create the database.
        let document = try storeCall { () throws(TabStoreError) in try TabStoreDocument(json: bytes) }
        let store = try context.openOrCreateStore { store throws(TabStoreError) in _ = try store.importDocument(document, replace: replace) }
        let written = try storeCall { () throws(TabStoreError) in
            try store.importDocument(document, replace: replace) { done, total in progress.update(done, of: total) }
        }
        // The sets already as in the document were not written.
        return RunResult(standardOutput: output(document, written: written, json: context.json), savedChange: written > 0)
    }

    private static func output(_ document: TabStoreDocument, written: Int, json: Bool) -> String {
        let unchanged = document.sets.count - written
        if json {
            return JSONValue.object([
                ("imported", .int(written)),
                ("unchanged", .int(unchanged)),
                ("sets", .array(document.sets.map { .string($0.name) })),
            ]).line
        }
        if unchanged == 0 { return "imported \(counted(written, "set", "sets"))\n" }
        if written == 0 { return "unchanged (\(counted(unchanged, "set", "sets")) already as in the document)\n" }
        return "imported \(counted(written, "set", "sets")) (\(unchanged) unchanged)\n"
    }
}
