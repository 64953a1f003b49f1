import TabStoreKit

enum ExportCommand: TabstoreCommand {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Print sets as a JSON document for 'tabstore import'.",
        discussion: """
        Always JSON, pretty-printed; with --json, the same document on one line:
          {"format":"tabstore","version":2,"sets":[{"name","selectedIndex","tabs":[TITLE,...],
           "ids":[ID,...],"payloads":[{KEY:VALUE},...]}]}
        ("payloads" only when a tab has data; import also reads version 1, without ids.)
        A set named twice is exported once, so the document can always be imported.

        To copy sets to another database:
          tabstore export | tabstore --db OTHER import - --replace

        With --output, the document goes to FILE instead: written to a temporary file \
        beside it, synced, then renamed into place, so FILE is never half-written; \
        prints 'exported N sets to FILE' (with --json {"exported":N,"file":FILE}). Only \
        a regular file is replaced (with --force), and the new one keeps its permissions \
        (and, as root, its owner and group); a symbolic link, directory, device, named \
        pipe or socket at FILE is refused (exit 1). '--output -' is standard output, as \
        without --output (write './-' for a file named '-'). When standard error is a \
        terminal, writing that takes more than about half a second shows its progress \
        there (not with --json).
        """,
        arguments: [
            ArgumentSpec(name: "set", kind: .name, arity: .zeroOrMore, help: "The sets to export, in this order; all sets, sorted by name, when omitted."),
        ],
        options: [
            OptionSpec(name: "output", kind: .value(valueName: "file"), help: "Write the document to FILE (pretty-printed); '-' is standard output, the default.", completion: .files),
            .force,
        ]
    )

    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult {
        let setNames = arguments.texts("set")
        var output = arguments.textOption("output")
        if output == "" {
            throw .usage(UsageError(message: "The value '' is invalid for '--output <file>': it is empty", command: spec.name))
        }
        // As `import -` reads standard input, `--output -` writes standard output.
        if output == "-" {
            if arguments.flag("force") {
                throw .usage(UsageError(message: "'--force' replaces the file of '--output <file>', and '-' is standard output", command: spec.name))
            }
            output = nil
        }
        if output == nil && arguments.flag("force") {
            throw .usage(UsageError(message: "'--force' replaces the file of '--output <file>'; give --output too", command: spec.name))
        }
        let store = try context.openStore()
        let document = try storeCall { () throws(TabStoreError) in try store.export(setNames) }
        guard let output else { return RunResult(standardOutput: document.json(pretty: !context.json) + "\n") }
        let bytes = Array((document.json() + "\n").utf8)
        let progress = ProgressLine.onStandardError(label: "export", unit: "bytes", json: context.json)
        defer { progress.finish() }
        TemporaryFileSignals.install()
        try storeCall { () throws(TabStoreError) in
            try store.writeFile(bytes, to: output, replacing: arguments.flag("force")) { progress.update($0.writtenBytes, of: $0.byteCount) }
        }
        let count = document.sets.count
        let text = context.json
            ? JSONValue.object([("exported", .int(count)), ("file", .string(output))]).line
            : "exported \(counted(count, "set", "sets")) to \(VisibleText.shown(output))\n"
        return RunResult(standardOutput: text, savedChange: true)
    }
}
