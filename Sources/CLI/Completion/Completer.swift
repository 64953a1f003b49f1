import TabStoreKit

/// Answers "what can come next?" for a partly typed command line, from the same
/// declarations the scanner parses against, so completions cannot disagree with it.
struct Completer {
    /// What the shell should offer.
    enum Result: Equatable {
        case candidates([Candidate])
        /// Let the shell complete a path.
        case files
    }

    struct Candidate: Equatable {
        let value: String
        var description = ""
    }

    let program: ProgramSpec
    /// The sets in the database the command line names, with a short description each.
    let sets: (_ database: String?) -> [Candidate]
    /// The titles of one set in that database.
    let titles: (_ set: String, _ database: String?) -> [Candidate]

    /// `words` are the command line's words after the program name, already unquoted; the
    /// last is the word being completed (empty after a space).
    func complete(_ words: [String]) -> Result {
        let current = words.last ?? ""
        var line = LineSoFar()
        for word in words.dropLast() {
            guard line.take(word, program: program) else { return .candidates([]) }
        }
        if let option = line.pendingOption {
            return values(option.kind == .titleArgument ? .titles : option.completion, line: line, current: current)
        }
        // `--db=PA`: the value after `=`, offered as the whole word.
        if !line.optionsEnded, current.hasPrefix("--"), let equals = current.firstIndex(of: "="),
           let option = line.option(named: String(current[..<equals]), program: program), option.kind != .flag {
            let prefix = String(current[...equals])
            let result = values(option.kind == .titleArgument ? .titles : option.completion, line: line, current: String(current[current.index(after: equals)...]))
            guard case let .candidates(candidates) = result else { return result }
            return .candidates(candidates.map { Candidate(value: prefix + $0.value, description: $0.description) })
        }
        if !line.optionsEnded && current.hasPrefix("-") && !isIntegerLiteral(current) {
            let options = (line.command?.options ?? []) + program.globalOptions
            return matching(options.map { Candidate(value: "--\($0.name)", description: firstSentence($0.help)) }, current)
        }
        guard let command = line.command else {
            return matching(subcommands, current)
        }
        guard let argument = argument(at: line.positionals.count, of: command) else { return .candidates([]) }
        return values(argument.completionSource, line: line, current: current)
    }

    private var subcommands: [Candidate] {
        program.visibleCommands.map { Candidate(value: $0.name, description: $0.abstract) }
    }

    private func values(_ source: CompletionSource, line: LineSoFar, current: String) -> Result {
        switch source {
        case .none: return .candidates([])
        case .files: return .files
        case .subcommands:
            let topics = program.topics.map { Candidate(value: $0.name, description: "What \($0.heading.lowercased()) mean.") }
            return matching(subcommands + topics, current)
        case let .choices(choices): return matching(choices.map { Candidate(value: $0) }, current)
        case .setNames: return matching(sets(line.database), current)
        case .titles:
            guard let command = line.command,
                  let position = command.arguments.firstIndex(where: { $0.completionSource == .setNames }),
                  line.positionals.indices.contains(position)
            else { return .candidates([]) }
            let set = line.positionals[position]
            return matching(titles(line.readsEscapes ? VisibleText.original(of: set) : set, line.database), current)
        }
    }

    /// The declared argument that the positional value at `position` fills; a variadic one takes all that follow.
    private func argument(at position: Int, of command: CommandSpec) -> ArgumentSpec? {
        var remaining = position
        for argument in command.arguments {
            if argument.arity == .oneOrMore || argument.arity == .zeroOrMore || remaining == 0 { return argument }
            remaining -= 1
        }
        return nil
    }

    private func matching(_ candidates: [Candidate], _ prefix: String) -> Result {
        .candidates(candidates.filter { $0.value.hasPrefix(prefix) })
    }

    /// The help text up to its first full stop, for the shells that show a description.
    private func firstSentence(_ help: String) -> String {
        guard let end = help.firstRange(of: ". ") else { return help }
        return String(help[..<end.lowerBound]) + "."
    }
}

/// The words before the one being completed, read the way the scanner reads them.
private struct LineSoFar {
    var command: CommandSpec?
    var positionals: [String] = []
    var optionsEnded = false
    /// The option whose value is the word being completed.
    var pendingOption: OptionSpec?
    /// `--db`, when given.
    var database: String?
    /// `--escaped`, when given: the set named is in the spelling text output shows.
    var readsEscapes = false

    /// Takes one word; false when the line cannot be completed (an unknown subcommand).
    mutating func take(_ word: String, program: ProgramSpec) -> Bool {
        if let option = pendingOption {
            pendingOption = nil
            takeValue(word, of: option)
        } else if !optionsEnded && word == "--" {
            optionsEnded = true
        } else if !optionsEnded && looksLikeOption(word) {
            let equals = word.hasPrefix("--") ? word.firstIndex(of: "=") : nil
            let name = equals.map { String(word[..<$0]) } ?? word
            guard let option = option(named: name, program: program) else { return true }
            if option.kind == .flag {
                if option.name == "escaped" { readsEscapes = true }
                return true
            }
            if let equals {
                takeValue(String(word[word.index(after: equals)...]), of: option)
            } else {
                pendingOption = option
            }
        } else if command == nil {
            guard let known = program.command(named: word), !known.isHidden else { return false }
            command = known
        } else {
            positionals.append(word)
        }
        return true
    }

    /// The option `--name` or `-n` stands for on this line, global or the command's.
    func option(named name: String, program: ProgramSpec) -> OptionSpec? {
        let options = program.globalOptions + (command?.options ?? [])
        return options.first { "--\($0.name)" == name || $0.short.map { "-\($0)" } == name }
    }

    private mutating func takeValue(_ value: String, of option: OptionSpec) {
        if option.name == "db" { database = value }
        if option.kind == .titleArgument { positionals.append(value) }
    }
}
