import TabStoreKit

/// What a command line asks for.
enum Action: Sendable, Equatable {
    case run(ParsedArguments)
    /// Help for a command, or for the program when `nil`.
    case help(command: String?)
    case version
    case failure(UsageError)
}

/// The scanned command line: the action, plus every option seen (global ones included)
/// even when scanning failed, so that `--json` still shapes the error.
struct Invocation: Sendable, Equatable {
    var options: [String: OptionValue] = [:]
    var action: Action

    var command: String? {
        switch action {
        case let .run(arguments): arguments.command
        case let .help(command): command
        case .version: nil
        case let .failure(error): error.command
        }
    }
}

/// Parses argv against a `ProgramSpec`.
///
/// Rules: `--` ends options; `-1` (a negative integer) is a value, never an option; an
/// option's value is the rest after `=` or the next argument unless that looks like an
/// option, but `--title`, `--index` and `--id` take the next argument whatever it is
/// (`--title --json` is the tab titled "--json"); global options are accepted anywhere,
/// a command's options after its name; with `--escaped`, set names and titles are read
/// in the spelling text output shows them (`VisibleText`), so that a name shown as
/// `a\tb` is typed `a\tb`;
/// `-h`/`--help` and `--version` win over every error but an unknown subcommand.
struct ArgumentScanner {
    let program: ProgramSpec

    func scan(_ arguments: [String]) -> Invocation {
        var state = ScanState()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if !state.optionsEnded && argument == "--" {
                state.optionsEnded = true
            } else if !state.optionsEnded && looksLikeOption(argument) {
                let next = index < arguments.count ? arguments[index] : nil
                if scanOption(argument, next: next, into: &state) { index += 1 }
            } else if state.command != nil {
                state.positionals.append(Positional(text: argument, reading: .asTyped))
            } else if let command = program.command(named: argument) {
                state.command = command
            } else if state.unknownCommand == nil && state.firstError == nil {
                // After an option error the "command" may be that option's value: report the option.
                let suggestion = Suggestion.clause(for: argument, in: program.visibleCommands.map(\.name))
                state.unknownCommand = UsageError(message: "Unknown subcommand \(shown(argument))\(suggestion)", command: nil)
            }
        }
        return Invocation(options: state.options, action: action(for: state))
    }

    /// Precedence: an unknown subcommand (unless an option error came before it), help,
    /// version, the first option error, then the positional arguments against the declaration.
    private func action(for state: ScanState) -> Action {
        if let error = state.unknownCommand { return .failure(error) }
        if state.options["help"] == .flag { return .help(command: state.command?.name) }
        if state.options["version"] == .flag { return .version }
        if let error = state.firstError { return .failure(error) }
        guard let command = state.command else { return .help(command: nil) }
        do {
            return .run(try assign(state.positionals, to: command, options: state.options))
        } catch {
            return .failure(error)
        }
    }

    /// Reads one option (and its value); returns whether it used up `next` as the value.
    private func scanOption(_ argument: String, next: String?, into state: inout ScanState) -> Bool {
        let name: String, inlineValue: String?
        if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
            name = String(argument[..<equals])
            inlineValue = String(argument[argument.index(after: equals)...])
        } else {
            (name, inlineValue) = (argument, nil)
        }
        let commandName = state.command?.name
        guard let option = option(named: name, command: state.command) else {
            let known = (program.globalOptions + (state.command?.options ?? [])).map(\.name)
            let typed = String(name.drop { $0 == "-" })
            let suggestion = Suggestion.nearest(to: typed, in: known).map { "; did you mean '--\($0)'?" }
                ?? dashHint(for: argument, name: name, state: state)
            state.fail(UsageError(message: "Unknown option \(shown(name))\(suggestion)", command: commandName))
            return false
        }
        if case .flag = option.kind {
            if inlineValue != nil {
                state.fail(UsageError(message: "Option '\(option.label)' takes no value", command: commandName))
            } else {
                state.options[option.name] = .flag
            }
            return false
        }
        // The value follows `=`, else it is the next argument unless that looks like an
        // option. A title, index or id is the next argument whatever it is: `--title -x`
        // is the title "-x" and `--title --json` the title "--json" (as `--title=--json`
        // is); taking a declared option there would act on a tab nobody named.
        let usesNext = inlineValue == nil && next.map { next in
            if option.kind.isPositionalSpelling { return true }
            return next != "--" && !looksLikeOption(next)
        } == true
        guard let value = inlineValue ?? (usesNext ? next : nil) else {
            state.fail(UsageError(message: "Missing value for '\(option.label)'", command: commandName))
            return false
        }
        switch option.kind {
        case .flag:
            break  // returned above
        case .titleArgument:
            state.positionals.append(Positional(text: value, reading: .title))
        case .indexArgument:
            guard isIntegerLiteral(value) else {
                state.fail(UsageError(message: "The value \(shown(value)) is invalid for '\(option.label)'\(integerRefusal(value))", command: commandName))
                return usesNext
            }
            state.positionals.append(Positional(text: value, reading: .index))
        case .idArgument:
            guard let id = TabID(value) else {
                state.fail(UsageError(message: "The value \(shown(value)) is invalid for '\(option.label)': it is not a tab id (a UUID such as 0f8fad5b-d9cb-469f-a165-70867728950e)", command: commandName))
                return usesNext
            }
            state.positionals.append(Positional(text: value, reading: .id(id)))
        case .value:
            state.options[option.name] = .text(value)
        case let .integer(_, minimum):
            if let integer = integerValue(value), integer >= minimum {
                state.options[option.name] = .integer(integer)
            } else {
                state.fail(UsageError(message: "The value \(shown(value)) is invalid for '\(option.label)'\(integerRefusal(value, minimum: minimum))", command: commandName))
            }
        case .index:
            guard isIntegerLiteral(value) else {
                state.fail(UsageError(message: "The value \(shown(value)) is invalid for '\(option.label)'\(integerRefusal(value))", command: commandName))
                return usesNext
            }
            state.options[option.name] = .index(TypedIndex(value))
        }
        return usesNext
    }

    /// For an unknown option where the command would still take a title or name: how to
    /// give one that starts with '-' (`add main -x`). Nothing where no such argument is
    /// left to fill (`select main 0 -x`), nor for another command's option (`list --force`).
    private func dashHint(for argument: String, name: String, state: ScanState) -> String {
        guard let command = state.command else { return "" }
        let elsewhere = program.commands.flatMap(\.options).contains { "--\($0.name)" == name || $0.short.map { "-\($0)" } == name }
        guard !elsewhere else { return "" }
        var room = -state.positionals.count
        for declared in command.arguments {
            if case .index = declared.kind { continue }
            switch declared.arity {
            case .required, .optional: room += 1
            case .zeroOrMore, .oneOrMore: room = .max
            }
            if room == .max { break }
        }
        guard room > 0 else { return "" }
        return "; if \(shown(argument)) is a title or name, put '--' before it"
    }

    private func option(named name: String, command: CommandSpec?) -> OptionSpec? {
        let options = program.globalOptions + (command?.options ?? [])
        if name.hasPrefix("--") {
            return options.first { "--\($0.name)" == name }
        }
        return options.first { $0.short.map { "-\($0)" } == name }
    }

    /// Hands positionals to the declared arguments in order; a variadic argument takes
    /// what the required arguments after it leave.
    private func assign(
        _ positionals: [Positional], to command: CommandSpec, options: [String: OptionValue]
    ) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments(command: command.name, options: options)
        let escaped = options["escaped"] == .flag
        var remaining = positionals[...]
        for (position, argument) in command.arguments.enumerated() {
            let requiredAfter = command.arguments.dropFirst(position + 1).filter {
                $0.arity == .required || $0.arity == .oneOrMore
            }.count
            let available = max(0, remaining.count - requiredAfter)
            let count: Int
            switch argument.arity {
            case .required: count = 1
            case .optional: count = min(1, available)
            case .oneOrMore: count = max(1, available)
            case .zeroOrMore: count = available
            }
            guard remaining.count >= count else {
                throw UsageError(message: "Missing expected argument '\(argument.label)'", command: command.name)
            }
            var values: [ArgumentValue] = []
            for positional in remaining.prefix(count) {
                values.append(try value(of: positional, for: argument, escaped: escaped, command: command.name))
            }
            remaining = remaining.dropFirst(count)
            if !values.isEmpty { parsed.values[argument.name] = values }
        }
        if let extra = remaining.first {
            // `--title X` after the tab was given already: the option is the second tab.
            if let spelling = extra.optionSpelling, let tab = command.arguments.last(where: { if case .tab = $0.kind { true } else { false } }) {
                throw UsageError(message: "'\(spelling)' is a second tab, but '\(command.name)' takes one '\(tab.label)'", command: command.name)
            }
            throw UsageError(message: "Unexpected argument \(shown(extra.text))", command: command.name)
        }
        return parsed
    }

    private func value(of positional: Positional, for argument: ArgumentSpec, escaped: Bool, command: String) throws(UsageError) -> ArgumentValue {
        let isName = switch argument.kind {
        case .name, .title, .tab: true
        case .text, .index: false
        }
        // An index or an id is not a name: `--index` and `--id` take theirs as typed.
        let readsEscapes = escaped && isName && (positional.reading == .asTyped || positional.reading == .title)
        let text = readsEscapes ? VisibleText.original(of: positional.text) : positional.text
        if positional.reading == .title, argument.kind != .tab, argument.kind != .title {
            throw UsageError(message: "'--title \(text)' cannot be used for '\(argument.label)', which is not a tab or title", command: command)
        }
        if positional.reading == .index, argument.kind != .tab {
            throw UsageError(message: "'--index \(text)' cannot be used for '\(argument.label)', which is not a tab", command: command)
        }
        if case .id = positional.reading, argument.kind != .tab {
            throw UsageError(message: "'--id \(text)' cannot be used for '\(argument.label)', which is not a tab", command: command)
        }
        switch argument.kind {
        case .text, .name, .title:
            return .text(text)
        case .tab:
            // An integer is resolved by the Store inside its write: refused there when a
            // tab also has it as a title, out of range there when too large for `Int`.
            switch positional.reading {
            case .title: return .tab(.title(text))
            case .index: return .tab(.userInput(text, asIndex: true))
            case let .id(id): return .tab(.id(id))
            case .asTyped: return .tab(isIntegerLiteral(text) ? .userInput(text) : .title(text))
            }
        case .index:
            guard isIntegerLiteral(text) else {
                throw UsageError(message: "The value \(shown(text)) is invalid for '\(argument.label)'\(integerRefusal(text))", command: command)
            }
            return .index(TypedIndex(text))
        }
    }
}

/// A positional argument as typed; `--title X` gives one that must be a title,
/// `--index X` one that must be an index.
private struct Positional {
    enum Reading: Equatable { case asTyped, title, index, id(TabID) }
    let text: String
    let reading: Reading

    /// How it was typed when an option gave it (`--title X`), for messages.
    var optionSpelling: String? {
        switch reading {
        case .asTyped: nil
        case .title: "--title \(text)"
        case .index: "--index \(text)"
        case .id: "--id \(text)"
        }
    }
}

private extension OptionSpec.Kind {
    /// `--title` and `--index` spell a positional argument: their value is whatever follows.
    var isPositionalSpelling: Bool {
        switch self {
        case .titleArgument, .indexArgument, .idArgument: true
        case .flag, .value, .integer, .index: false
        }
    }
}

private struct ScanState {
    var command: CommandSpec?
    var positionals: [Positional] = []
    var options: [String: OptionValue] = [:]
    var optionsEnded = false
    var unknownCommand: UsageError?
    var firstError: UsageError?

    mutating func fail(_ error: UsageError) {
        if firstError == nil { firstError = error }
    }
}

/// `-x`, `--name`, `--name=value`; but not `-`, and not `-1`, which is a value.
func looksLikeOption(_ argument: String) -> Bool {
    argument.hasPrefix("-") && argument != "-" && !isIntegerLiteral(argument)
}

/// An optional `-` and one or more ASCII digits (whether or not it fits `Int`): the
/// library's reading of a typed tab, so that `-1` is the value it takes as the last tab.
func isIntegerLiteral(_ text: String) -> Bool {
    TabRef.readsAsIndex(text)
}

/// Why `text` is refused where an integer of at least `minimum` (nil: any) is wanted, as the
/// end of "The value ... is invalid for ...": "invalid" alone leaves the user guessing.
/// Empty for a value that is not refused.
func integerRefusal(_ text: String, minimum: Int? = nil) -> String {
    guard isIntegerLiteral(text) else { return ": it is not an integer" }
    guard let minimum else { return "" }
    if let value = integerValue(text) { return value < minimum ? ": the minimum is \(minimum)" : "" }
    // A literal beyond `Int`: below its least value, or above its greatest.
    return text.hasPrefix("-") ? ": the minimum is \(minimum)" : ": the maximum is \(Int.max)"
}

/// The integer `text` spells, or `nil` when it is not an integer literal or does not fit `Int`.
func integerValue(_ text: String) -> Int? {
    isIntegerLiteral(text) ? Int(text) : nil
}
