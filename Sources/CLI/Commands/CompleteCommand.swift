#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TabStoreKit

/// The hidden half of the completion scripts: `tabstore __complete SHELL -- WORD...`
/// prints what may follow. It never fails and never creates a database: at worst it
/// offers nothing.
enum CompleteCommand: TextCommand {
    static let spec = CommandSpec(
        name: "__complete",
        abstract: "Print completions for the words after '--' (used by the completion scripts).",
        arguments: [
            ArgumentSpec(name: "shell", kind: .text, help: "bash, zsh or fish."),
            ArgumentSpec(name: "words", kind: .text, arity: .zeroOrMore, help: "The words typed so far, as typed; the last is being completed."),
        ],
        isHidden: true,
        // It reads set names and titles from files only: a Tab key never reaches a server.
        opensDatabase: false
    )

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String {
        let shell = try arguments.text("shell")
        var words = arguments.texts("words")
        if words.isEmpty { words = [""] }
        let typed = words[words.count - 1]
        // bash and zsh hand over words as typed; fish has unquoted all but the current one.
        words = words.enumerated().map { index, word in
            shell != "fish" || index == words.count - 1 ? unquotedShellWord(word) : word
        }
        let environment = context.environment
        let completer = Completer(
            program: context.program,
            // Offered as text output shows them: a candidate is a line of the answer, and
            // the shell may list it on the terminal. One that needs escapes is typed with --escaped.
            sets: { database in
                let summaries = withStore(database, environment) { store in try? store.tabSets() } ?? []
                return summaries.map { .init(value: VisibleText.shown($0.name), description: counted($0.tabCount, "tab", "tabs")) }
            },
            titles: { set, database in
                let tabSet = withStore(database, environment) { store in try? store.tabSet(named: set) }
                return tabSet?.tabs.enumerated().map { .init(value: VisibleText.shown($1.title), description: "tab \($0)") } ?? []
            }
        )
        return CompletionScript.answer(completer.complete(words), shell: shell, typed: typed)
    }

    /// Runs `body` with the database the command line names, only if that file exists;
    /// waits briefly for a lock: a Tab key must not hang.
    private static func withStore<T>(_ option: String?, _ environment: Environment, _ body: (TabStore) -> T?) -> T? {
        guard let path = try? DatabasePath.resolve(option: option, environment: environment),
              !path.isEmpty, !DatabasePath.isServerURL(path), access(path, F_OK) == 0,
              let store = try? TabStore(path: path, options: .init(busyTimeout: .milliseconds(200)))
        else { return nil }
        return body(store)
    }
}
