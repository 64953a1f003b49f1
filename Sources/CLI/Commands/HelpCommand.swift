enum HelpCommand: TextCommand {
    static let spec = CommandSpec(
        name: "help",
        abstract: "Show help for tabstore or one of its subcommands.",
        arguments: [
            ArgumentSpec(name: "subcommand", kind: .text, arity: .optional, help: "The subcommand to explain."),
        ]
    )

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String {
        let text = try helpText(arguments, program: context.program)
        return context.json ? JSONOutput.help(text).line : text
    }

    private static func helpText(_ arguments: ParsedArguments, program: ProgramSpec) throws(CLIError) -> String {
        guard let name = arguments.optionalText("subcommand") else { return HelpText.rootHelp(of: program) }
        guard let command = program.command(named: name) else {
            throw .usage(UsageError(message: "Unknown subcommand \(shown(name))", command: spec.name))
        }
        return HelpText.help(for: command, program: program)
    }
}
