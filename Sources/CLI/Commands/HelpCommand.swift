enum HelpCommand: TextCommand {
    static let spec = CommandSpec(
        name: "help",
        abstract: "Show help for tabstore or one of its subcommands.",
        discussion: """
        'tabstore help exit-codes' says what each exit code means. With --man, prints the \
        manual page instead, every subcommand and the exit codes in it. To read it:
          tabstore help --man | man -l -
        """,
        arguments: [
            ArgumentSpec(name: "subcommand", kind: .text, arity: .optional, help: "The subcommand to explain, or exit-codes.", completion: .subcommands),
        ],
        options: [
            OptionSpec(name: "man", kind: .flag, help: "Print the manual page (roff, for man -l) for tabstore and every subcommand."),
        ],
        opensDatabase: false
    )

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String {
        let text = try helpText(arguments, program: context.program)
        return context.json ? JSONOutput.help(text).line : text
    }

    private static func helpText(_ arguments: ParsedArguments, program: ProgramSpec) throws(CLIError) -> String {
        let name = arguments.optionalText("subcommand")
        if arguments.flag("man") {
            guard name == nil else {
                throw .usage(UsageError(message: "'--man' prints the whole manual; leave out '<subcommand>'", command: spec.name))
            }
            return ManPage.page(of: program, version: Program.version)
        }
        guard let name else { return HelpText.rootHelp(of: program) }
        if let topic = program.topic(named: name) { return HelpText.help(for: topic) }
        guard let command = program.command(named: name), !command.isHidden else {
            let suggestion = Suggestion.clause(for: name, in: program.visibleCommands.map(\.name) + program.topics.map(\.name))
            // Pointing to the list of commands, as for `tabstore bogus`: help's own help lists none.
            throw .usage(UsageError(message: "Unknown subcommand \(shown(name))\(suggestion)", command: nil))
        }
        return HelpText.help(for: command, program: program)
    }
}
