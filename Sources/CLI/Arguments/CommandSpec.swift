/// A command declared as data: the scanner parses against it and the help text is
/// generated from it, so the two cannot disagree.
struct CommandSpec: Sendable {
    let name: String
    /// One sentence, shown after `OVERVIEW:` and in the root's subcommand list.
    let abstract: String
    /// Paragraphs shown under the overview; empty for none.
    var discussion: String = ""
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    /// Whether a successful run has stored a change (or written a file), so that an
    /// error printing its output can say the change is nonetheless saved.
    var savesChanges = false
}

/// A positional argument.
struct ArgumentSpec: Sendable {
    /// How the scanner turns the text into a value.
    enum Kind: Sendable {
        /// Taken as is (set names, file paths).
        case text
        /// Always a title, even when made of digits; `--title` may give it too.
        case title
        /// An integer is an index, anything else a title; `--title` forces a title.
        case tab
        /// Must be an integer that fits `Int`.
        case integer
    }

    enum Arity: Sendable {
        case required, optional, oneOrMore, zeroOrMore
    }

    /// Shown as `<name>`.
    let name: String
    let kind: Kind
    var arity: Arity = .required
    let help: String

    var label: String { "<\(name)>" }
}

/// An option: `--name`, `--name VALUE` or `--name=VALUE`.
struct OptionSpec: Sendable {
    enum Kind: Sendable {
        case flag
        /// Takes a value shown as `<valueName>`.
        case value(valueName: String)
        /// Takes an integer that fits `Int` and is at least `minimum`.
        case integer(valueName: String, minimum: Int = .min)
        /// `--title VALUE`: VALUE is the next positional argument and is a title,
        /// whichever `<tab>` or `<title>` position it lands in.
        case titleArgument
        /// `--index VALUE`: VALUE is the next positional argument and is an index, even
        /// when a tab has it as its title; only a `<tab>` takes it.
        case indexArgument
    }

    /// The long name without dashes.
    let name: String
    var short: Character? = nil
    let kind: Kind
    let help: String
    /// `--title` is another spelling of a positional argument, so usage lines leave it out.
    var isInUsage = true

    /// `--db <path>`, `--json`, `--title <title>`.
    var label: String {
        switch kind {
        case .flag: "--\(name)"
        case let .value(valueName), let .integer(valueName, _): "--\(name) <\(valueName)>"
        case .titleArgument: "--\(name) <title>"
        case .indexArgument: "--\(name) <index>"
        }
    }

    /// `-h, --help` in the help listing.
    var helpLabel: String {
        short.map { "-\($0), \(label)" } ?? label
    }
}

/// The whole program: its global options (accepted before or after the command) and commands.
struct ProgramSpec: Sendable {
    let name: String
    let abstract: String
    let discussion: String
    let globalOptions: [OptionSpec]
    let commands: [CommandSpec]

    func command(named name: String) -> CommandSpec? {
        commands.first { $0.name == name }
    }
}
