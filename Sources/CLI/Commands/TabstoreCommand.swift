import TabStoreKit

/// One `tabstore` subcommand: its declaration and what it does, in one file per command.
protocol TabstoreCommand: Sendable {
    static var spec: CommandSpec { get }
    /// Does the work with (at most) one Store call: what to print and how to exit.
    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult
}

/// A command whose whole result is text on standard output: all but `watch`.
protocol TextCommand: TabstoreCommand {
    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String
}

extension TextCommand {
    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult {
        RunResult(standardOutput: try run(arguments, in: context))
    }
}

/// What a command may use besides its arguments.
struct CommandContext {
    let program: ProgramSpec
    /// `--json`: print JSON instead of text.
    let json: Bool
    /// `--db`, when given.
    let databaseOption: String?
    let environment: Environment
    let command: String

    /// Opens (creating when missing) the database and its folder.
    func openStore() throws(CLIError) -> TabStore {
        if databaseOption == "" {
            throw .usage(UsageError(message: "The value '' is invalid for '--db <path>'", command: command))
        }
        let path = try DatabasePath.resolve(option: databaseOption, environment: environment, command: command)
        try DatabasePath.createParentFolders(of: path)
        return try storeCall { () throws(TabStoreError) in try TabStore(path: path) }
    }
}

// Declarations several commands share, so that they read the same in every help text.
extension ArgumentSpec {
    static func set(_ help: String = "The name of the tab set.") -> ArgumentSpec {
        ArgumentSpec(name: "set", kind: .text, help: help)
    }

    static let tab = ArgumentSpec(
        name: "tab", kind: .tab,
        help: "An index (0-based; negative counts from the end, so -1 is the last tab) or an exact title."
    )
}

extension OptionSpec {
    static let title = OptionSpec(
        name: "title", kind: .titleArgument,
        help: "Give a <tab> as a title even when it is made of digits ('--title 1' is the tab titled \"1\"). Stands where the <tab> goes.",
        isInUsage: false
    )

    static let index = OptionSpec(
        name: "index", kind: .indexArgument,
        help: "Give a <tab> as an index even when a tab has it as its title ('--index 1' is the second tab). Stands where the <tab> goes.",
        isInUsage: false
    )

    static let id = OptionSpec(
        name: "id", kind: .idArgument,
        help: "Give a <tab> by its id, the UUID that 'list <set> --json' shows; it never changes. Stands where the <tab> goes.",
        isInUsage: false
    )

    /// For commands that write a file: an existing one is replaced only when asked.
    static let force = OptionSpec(name: "force", kind: .flag, help: "Replace FILE if it exists.")

    /// Optimistic concurrency for every command that changes a set. Left out of usage
    /// lines, like `--title`: it guards a command rather than saying what it does.
    static let ifRevision = OptionSpec(
        name: "if-revision", kind: .integer(valueName: "revision", minimum: 0),
        help: "Change nothing and fail (exit 1) unless the set is still at this revision (see 'list <set> --json' or 'history'); 'add' counts a missing set as revision 0.",
        isInUsage: false
    )
}

extension ParsedArguments {
    /// `--if-revision`. Revisions start at 0, so the scanner refuses a negative one as a
    /// usage error rather than letting it become a refusal that could never be avoided.
    var ifRevision: Int? { integerOption(OptionSpec.ifRevision.name) }
}

/// `1 tab`, `3 tabs`.
func counted(_ count: Int, _ singular: String, _ plural: String) -> String {
    "\(count) \(count == 1 ? singular : plural)"
}
