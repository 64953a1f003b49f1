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
    /// Left out of help, the man page, completions and suggestions: plumbing for scripts
    /// tabstore itself generates (`__complete`).
    var isHidden = false
    /// Whether the command opens the database: a server URL then hands the run to the
    /// executable that serves servers. Help and completion scripts never need one.
    var opensDatabase = true
    /// The argument that names a second database (`sync`'s server): a server URL there
    /// hands the run over too.
    var databaseArgument: String? = nil
}

/// A positional argument.
struct ArgumentSpec: Sendable {
    /// How the scanner turns the text into a value.
    enum Kind: Sendable {
        /// Taken as is (file paths, data).
        case text
        /// A set's name: taken as is, or with `--escaped` in the spelling text output shows.
        case name
        /// Always a title, even when made of digits; `--title` may give it too. With
        /// `--escaped`, in the spelling text output shows.
        case title
        /// An integer is an index, anything else a title; `--title` forces a title. With
        /// `--escaped`, a title in the spelling text output shows.
        case tab
        /// An index into a set: any integer (`TypedIndex`).
        case index
    }

    enum Arity: Sendable {
        case required, optional, oneOrMore, zeroOrMore
    }

    /// Shown as `<name>`.
    let name: String
    let kind: Kind
    var arity: Arity = .required
    let help: String
    /// What completes this argument; `nil` derives it: a `<set>` names a set, a tab-kind
    /// argument is a title of that set, anything else is new text.
    var completion: CompletionSource? = nil

    var label: String { "<\(name)>" }

    var completionSource: CompletionSource {
        completion ?? (kind == .tab ? .titles : name == "set" ? .setNames : .none)
    }
}

/// Where the shell completions for a value come from.
enum CompletionSource: Sendable, Equatable {
    /// New text (a new title, a number): nothing to offer.
    case none
    /// The names of the sets in the database the command line names.
    case setNames
    /// The titles of the set given as the command's `<set>`.
    case titles
    /// Paths, completed by the shell.
    case files
    /// The visible subcommands.
    case subcommands
    case choices([String])
}

/// An option: `--name`, `--name VALUE` or `--name=VALUE`.
struct OptionSpec: Sendable {
    enum Kind: Sendable, Equatable {
        case flag
        /// Takes a value shown as `<valueName>`.
        case value(valueName: String)
        /// Takes an integer that fits `Int` and is at least `minimum`.
        case integer(valueName: String, minimum: Int = .min)
        /// Takes an index into a set: any integer (`TypedIndex`).
        case index(valueName: String)
        /// `--title VALUE`: VALUE is the next positional argument and is a title,
        /// whichever `<tab>` or `<title>` position it lands in.
        case titleArgument
        /// `--index VALUE`: VALUE is the next positional argument and is an index, even
        /// when a tab has it as its title; only a `<tab>` takes it.
        case indexArgument
        /// `--id VALUE`: VALUE is the next positional argument and is a tab id (a UUID);
        /// only a `<tab>` takes it.
        case idArgument
    }

    /// The long name without dashes.
    let name: String
    var short: Character? = nil
    let kind: Kind
    let help: String
    /// `--title` is another spelling of a positional argument, so usage lines leave it out.
    var isInUsage = true
    /// What completes the option's value; `--title` takes titles whatever this says.
    var completion: CompletionSource = .none

    /// `--db <path>`, `--json`, `--title <title>`.
    var label: String {
        switch kind {
        case .flag: "--\(name)"
        case let .value(valueName), let .integer(valueName, _), let .index(valueName): "--\(name) <\(valueName)>"
        case .titleArgument: "--\(name) <title>"
        case .indexArgument: "--\(name) <index>"
        case .idArgument: "--\(name) <id>"
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
    /// Command lines with what they do, for the global help and the man page.
    var examples: [Example] = []
    /// Texts `help <topic>` shows that belong to no one command.
    var topics: [HelpTopic] = []

    func topic(named name: String) -> HelpTopic? {
        topics.first { $0.name == name }
    }

    func command(named name: String) -> CommandSpec? {
        commands.first { $0.name == name }
    }

    /// The commands people see: in help, the man page, completions and suggestions.
    var visibleCommands: [CommandSpec] {
        commands.filter { !$0.isHidden }
    }
}

/// `tabstore select main Reviews` and what it does.
struct Example: Sendable {
    let commandLine: String
    let explanation: String
}

/// `tabstore help exit-codes`: a text of its own, also a section of the man page.
struct HelpTopic: Sendable {
    let name: String
    /// The heading in help: `EXIT CODES`.
    let heading: String
    /// The man page's section: `EXIT STATUS`, as man-pages(7) names it.
    let manSection: String
    /// What the root help says of the topic.
    let abstract: String
    /// Each entry's label (`0`) and its text.
    let entries: [(label: String, text: String)]
}

extension ArgumentSpec {
    func withArity(_ arity: Arity) -> ArgumentSpec {
        var copy = self
        copy.arity = arity
        return copy
    }
}
