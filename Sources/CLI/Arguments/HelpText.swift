/// Help and usage text generated from the declarations, laid out like swift-argument-parser's.
enum HelpText {
    static let lineWidth = 80
    /// Where help columns start: two spaces of indent and a 24-column label.
    static let labelColumn = 26

    /// `tabstore select <set> <tab>`: the command's arguments then its options.
    static func usage(of command: CommandSpec, program: ProgramSpec) -> String {
        var parts = [program.name, command.name]
        for argument in command.arguments {
            switch argument.arity {
            case .required: parts.append(argument.label)
            case .optional: parts.append("[\(argument.label)]")
            case .oneOrMore: parts.append("\(argument.label) ...")
            case .zeroOrMore: parts.append("[\(argument.label) ...]")
            }
        }
        for option in command.options where option.isInUsage {
            parts.append("[\(option.label)]")
        }
        return parts.joined(separator: " ")
    }

    static func rootUsage(of program: ProgramSpec) -> String {
        "\(program.name) <subcommand> [<arguments> ...] [--db <path>] [--json]"
    }

    /// `tabstore help select`: the help that shows `command`'s usage (the root's when
    /// `nil`, unknown or hidden).
    static func helpCommand(for name: String?, program: ProgramSpec) -> String {
        guard let name, let command = program.command(named: name), !command.isHidden else { return "\(program.name) help" }
        return "\(program.name) help \(command.name)"
    }

    static func help(for command: CommandSpec, program: ProgramSpec) -> String {
        var sections = [overview(command.abstract, discussion: command.discussion)]
        sections.append("USAGE: \(usage(of: command, program: program))")
        if !command.arguments.isEmpty {
            sections.append(listing("ARGUMENTS:", command.arguments.map { ($0.label, $0.help) }))
        }
        let options = command.options + program.globalOptions
        sections.append(listing("OPTIONS:", options.map { ($0.helpLabel, $0.help) }))
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// Usage and commands first; what holds for every command after them.
    static func rootHelp(of program: ProgramSpec) -> String {
        var sections = [
            overview(program.abstract, discussion: ""),
            "USAGE: \(rootUsage(of: program))",
            listing("SUBCOMMANDS:", program.visibleCommands.map { ($0.name, $0.abstract) }),
            listing("OPTIONS:", program.globalOptions.map { ($0.helpLabel, $0.help) }),
        ]
        if !program.discussion.isEmpty { sections.append("DESCRIPTION:\n" + wrapParagraphs(program.discussion)) }
        if !program.examples.isEmpty { sections.append(examples(program.examples)) }
        let topics = program.topics.map { "'\(program.name) help \($0.name)' \($0.abstract)" }
        sections.append(
            wrap(
                "See '\(program.name) help <subcommand>' for detailed help" + topics.map { "; " + $0 }.joined() + ".",
                width: lineWidth - 2
            ).map { "  " + $0 }.joined(separator: "\n")
        )
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// `EXIT CODES:` and each entry, its text wrapped beside its label.
    static func help(for topic: HelpTopic) -> String {
        var lines = ["\(topic.heading):"]
        let width = (topic.entries.map(\.label.count).max() ?? 0) + 4
        for entry in topic.entries {
            let wrapped = wrap(entry.text, width: lineWidth - width)
            let label = "  " + entry.label
            lines.append(label + String(repeating: " ", count: width - label.count) + (wrapped.first ?? ""))
            lines += wrapped.dropFirst().map { String(repeating: " ", count: width) + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Each command line, then what it does, indented below it.
    private static func examples(_ examples: [Example]) -> String {
        var lines = ["EXAMPLES:"]
        for example in examples {
            lines.append("  " + example.commandLine)
            lines += wrap(example.explanation, width: lineWidth - 6).map { "      " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    private static func overview(_ abstract: String, discussion: String) -> String {
        let head = wrap("OVERVIEW: \(abstract)", width: lineWidth).joined(separator: "\n")
        guard !discussion.isEmpty else { return head }
        return head + "\n\n" + wrapParagraphs(discussion)
    }

    /// A heading and `label  help` rows, help wrapped in its column.
    private static func listing(_ heading: String, _ rows: [(label: String, help: String)]) -> String {
        var lines = [heading]
        let indent = String(repeating: " ", count: labelColumn)
        for row in rows {
            let helpLines = wrap(row.help, width: lineWidth - labelColumn)
            let label = "  " + row.label
            if label.count + 2 > labelColumn {
                lines.append(label)
                lines += helpLines.map { indent + $0 }
            } else {
                let first = label + String(repeating: " ", count: labelColumn - label.count)
                lines.append(first + (helpLines.first ?? ""))
                lines += helpLines.dropFirst().map { indent + $0 }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Wraps each line of `text` at the line width; lines that start with a space are examples, kept as they are.
    private static func wrapParagraphs(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(" ") || line.isEmpty ? String(line) : wrap(String(line), width: lineWidth).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Greedy word wrap; a word longer than `width` gets a line of its own.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
