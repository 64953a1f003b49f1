import TabStoreKit

enum CompletionsCommand: TextCommand {
    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print a completion script for bash, zsh or fish.",
        discussion: """
        The script completes subcommands, options, set names and the titles of the \
        set on the command line, read from the database that command line names \
        (--db, else $TABSTORE_DB, ...). To install it:
          bash: tabstore completions bash > ~/.local/share/bash-completion/completions/tabstore
          zsh:  tabstore completions zsh > "${fpath[1]}/_tabstore"
          fish: tabstore completions fish > ~/.config/fish/completions/tabstore.fish
        With --json, the script as one line: {"shell":SHELL,"script":TEXT}
        """,
        arguments: [
            ArgumentSpec(
                name: "shell", kind: .text, help: "bash, zsh or fish.",
                completion: .choices(CompletionScript.shells)
            ),
        ],
        opensDatabase: false
    )

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String {
        let shell = try arguments.text("shell")
        guard let script = CompletionScript.script(for: shell, program: context.program.name) else {
            throw .usage(UsageError(message: "The value \(shown(shell)) is invalid for '<shell>': expected bash, zsh or fish", command: spec.name))
        }
        guard context.json else { return script }
        return JSONValue.object([("shell", .string(shell)), ("script", .string(script))]).line
    }
}
