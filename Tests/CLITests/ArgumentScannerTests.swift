import Testing
@testable import TabStoreCLI
import TabStoreKit

/// The scanner against a small declaration of its own, so these tests pin the rules,
/// not tabstore's commands.
@Suite struct ArgumentScannerTests {
    static let program = ProgramSpec(
        name: "tool", abstract: "A tool.", discussion: "",
        globalOptions: [
            OptionSpec(name: "db", kind: .value(valueName: "path"), help: ""),
            OptionSpec(name: "json", kind: .flag, help: ""),
            OptionSpec(name: "version", kind: .flag, help: ""),
            OptionSpec(name: "help", short: "h", kind: .flag, help: ""),
        ],
        commands: [
            CommandSpec(
                name: "move", abstract: "",
                arguments: [
                    ArgumentSpec(name: "set", kind: .text, help: ""),
                    ArgumentSpec(name: "tab", kind: .tab, help: ""),
                    ArgumentSpec(name: "to", kind: .index, help: ""),
                ],
                options: [OptionSpec(name: "title", kind: .titleArgument, help: "", isInUsage: false)]
            ),
            CommandSpec(
                name: "add", abstract: "",
                arguments: [
                    ArgumentSpec(name: "set", kind: .text, help: ""),
                    ArgumentSpec(name: "title", kind: .title, arity: .zeroOrMore, help: ""),
                ],
                options: [OptionSpec(name: "at", kind: .index(valueName: "index"), help: "")]
            ),
            CommandSpec(
                name: "remove", abstract: "",
                arguments: [
                    ArgumentSpec(name: "set", kind: .text, help: ""),
                    ArgumentSpec(name: "tab", kind: .tab, arity: .oneOrMore, help: ""),
                ],
                options: [OptionSpec(name: "title", kind: .titleArgument, help: "", isInUsage: false)]
            ),
            CommandSpec(name: "list", abstract: "", arguments: [ArgumentSpec(name: "set", kind: .text, arity: .optional, help: "")]),
        ]
    )

    static func scan(_ arguments: [String]) -> Invocation {
        ArgumentScanner(program: program).scan(arguments)
    }

    static func move(_ tab: TabRef, _ to: String, options: [String: OptionValue] = [:]) -> Action {
        .run(ParsedArguments(command: "move", values: ["set": [.text("s")], "tab": [.tab(tab)], "to": [.index(TypedIndex(to))]], options: options))
    }

    /// A usage error whose message reads `message` to a person.
    static func usage(_ message: String, _ command: String? = nil) -> Action {
        .failure(UsageError(message: ErrorMessage([.wording(message)]), command: command))
    }

    /// `action` with its error's message as a person reads it, to compare with `usage`.
    static func shown(_ action: Action) -> Action {
        guard case let .failure(error) = action else { return action }
        return usage(error.message.shown, error.command)
    }

    @Test(arguments: [
        (["move", "s", "1", "2"], move(.userInput("1"), "2")),
        (["move", "s", "-1", "-2"], move(.userInput("-1"), "-2")),
        (["move", "s", "Home", "0"], move(.title("Home"), "0")),
        (["move", "s", "--title", "1", "0"], move(.title("1"), "0")),
        (["move", "s", "--title=-1", "0"], move(.title("-1"), "0")),
        (["move", "--title", "1", "s", "0"], usage("'--title 1' cannot be used for '<set>', which is not a tab or title", "move")),
        (["move", "s", "+1", "0"], move(.title("+1"), "0")),
        (["move", "s", "1e3", "0"], move(.title("1e3"), "0")),
        // Too large for Int: the Store says it is out of range (exit 1), not a usage error.
        (["move", "s", "99999999999999999999", "0"], move(.userInput("99999999999999999999"), "0")),
        // An index of any size: one beyond `Int` is the store's to refuse, as out of range.
        (["move", "s", "1", "99999999999999999999"], move(.userInput("1"), "99999999999999999999")),
        (["move", "s", "1", "-99999999999999999999"], move(.userInput("1"), "-99999999999999999999")),
        (["move", "s", "1", "x"], usage("The value 'x' is invalid for '<to>': it is not an integer", "move")),
        (["move", "s", "1"], usage("Missing expected argument '<to>'", "move")),
        (["move", "s", "1", "2", "3"], usage("Unexpected argument '3'", "move")),
        (["move", "s", "--", "-h", "2"], move(.title("-h"), "2")),
        (["--json", "move", "s", "1", "2"], move(.userInput("1"), "2", options: ["json": .flag])),
        (["move", "s", "1", "2", "--db", "x"], move(.userInput("1"), "2", options: ["db": .text("x")])),
        (["move", "s", "1", "2", "--db=--x"], move(.userInput("1"), "2", options: ["db": .text("--x")])),
        (["move", "s", "1", "2", "--db", "a", "--db", "b"], move(.userInput("1"), "2", options: ["db": .text("b")])),
        (["move", "s", "1", "2", "--db"], usage("Missing value for '--db <path>'", "move")),
        (["move", "s", "1", "2", "--db", "--json"], usage("Missing value for '--db <path>'", "move")),
        (["move", "s", "1", "2", "--json=1"], usage("Option '--json' takes no value", "move")),
        (["move", "s", "1", "2", "--nope"], usage("Unknown option '--nope'", "move")),
        (["move", "s", "1", "2", "-x"], usage("Unknown option '-x'", "move")),
        (["move", "s", "1", "2", "--at", "1"], usage("Unknown option '--at'", "move")),
        (["mvoe"], usage("Unknown subcommand 'mvoe'; did you mean 'move'?")),
        (["mvoe", "--help"], usage("Unknown subcommand 'mvoe'; did you mean 'move'?")),
        (["--at", "1", "add", "s"], usage("Unknown option '--at'")),
        (["add", "s"], .run(ParsedArguments(command: "add", values: ["set": [.text("s")]]))),
        (["add", "s", "1", "-2", "x"], .run(ParsedArguments(command: "add", values: ["set": [.text("s")], "title": [.text("1"), .text("-2"), .text("x")]]))),
        (["add", "s", "x", "--at", "-1"], .run(ParsedArguments(command: "add", values: ["set": [.text("s")], "title": [.text("x")]], options: ["at": .index(TypedIndex("-1"))]))),
        (["add", "s", "--at", "one"], usage("The value 'one' is invalid for '--at <index>': it is not an integer", "add")),
        (["add", "s", "-"], .run(ParsedArguments(command: "add", values: ["set": [.text("s")], "title": [.text("-")]]))),
        (["remove", "s"], usage("Missing expected argument '<tab>'", "remove")),
        (["remove", "s", "--title", "2", "0", "x"], .run(ParsedArguments(command: "remove", values: ["set": [.text("s")], "tab": [.tab(.title("2")), .tab(.userInput("0")), .tab(.title("x"))]]))),
        (["list"], .run(ParsedArguments(command: "list"))),
        (["list", "a"], .run(ParsedArguments(command: "list", values: ["set": [.text("a")]]))),
        (["list", "a", "b"], usage("Unexpected argument 'b'", "list")),
        (["list", "a\nb", "c\td"], usage("Unexpected argument 'c\\td'", "list")),
        ([], .help(command: nil)),
        (["--db", "x"], .help(command: nil)),
        (["-h"], .help(command: nil)),
        (["move", "-h"], .help(command: "move")),
        (["--help", "move", "--nope"], .help(command: "move")),
        (["move", "--version"], .version),
        (["--", "list"], .run(ParsedArguments(command: "list"))),
    ] as [([String], Action)])
    func scanning(arguments: [String], expected: Action) {
        #expect(Self.shown(Self.scan(arguments).action) == expected)
    }

    @Test func optionsAreKeptEvenWhenScanningFails() {
        let invocation = Self.scan(["move", "--json", "s"])
        #expect(invocation.options == ["json": .flag])
        #expect(Self.shown(invocation.action) == Self.usage("Missing expected argument '<tab>'", "move"))
    }

    @Test(arguments: [
        ("-1", true), ("0", true), ("123", true), ("-99999999999999999999", true),
        ("-", false), ("", false), ("--1", false), ("+1", false), ("1.5", false), ("1a", false), ("١", false),
    ])
    func integerLiterals(text: String, isInteger: Bool) {
        #expect(isIntegerLiteral(text) == isInteger)
    }

    @Test(arguments: [("-1", false), ("-", false), ("-h", true), ("--json", true), ("--", true), ("-1x", true), ("x", false)])
    func optionLookalikes(text: String, isOption: Bool) {
        #expect(looksLikeOption(text) == isOption)
    }

    @Test func everyTabstoreCommandHasAUniqueNameAndUsableDeclaration() {
        let names = Program.spec.commands.map(\.name)
        #expect(Set(names).count == names.count)
        for command in Program.spec.commands {
            let variadic = command.arguments.filter { $0.arity == .oneOrMore || $0.arity == .zeroOrMore }
            #expect(variadic.count <= 1, "\(command.name) has more than one variadic argument")
            #expect(!command.abstract.isEmpty)
        }
    }
}
