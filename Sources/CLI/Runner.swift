import TabStoreKit

/// What a run prints and how it exits.
package struct RunResult: Sendable, Equatable {
    package var standardOutput = ""
    package var standardError = ""
    package var exitCode: Int32 = ExitCode.success
    /// The run stored a change: said when its output then cannot be written. A command
    /// that edits sets it from what its library call returned (an edit's event, nil when
    /// nothing changed; a selection that is not a reselection; the sets an import wrote).
    var savedChange = false
    /// `--json` was given: an error found while printing is JSON too.
    package var json = false
    /// Set by `watch`: after printing the above, the process runs this until a signal.
    var watch: WatchSession?
    /// Set by `sync --watch`: after printing the above, the process syncs until a signal.
    var sync: SyncSession?
    /// The companion executable this run belongs to (a server URL where this executable
    /// hands them over): nothing was printed or read, and the process becomes that one.
    var handOver: String?
}

/// One `tabstore` run from arguments to output, without touching the process, so it can be tested.
package enum Runner {
    package static func run(_ raw: RawArguments, environment: Environment, servers: ServerStores) -> RunResult {
        let program = Program.spec
        let invocation = ArgumentScanner(program: program).scan(raw.arguments)
        let json = invocation.options["json"] == .flag
        var result = run(invocation, raw: raw, json: json, environment: environment, servers: servers, program: program)
        result.json = json
        return result
    }

    private static func run(
        _ invocation: Invocation, raw: RawArguments, json: Bool, environment: Environment, servers: ServerStores,
        program: ProgramSpec
    ) -> RunResult {
        if let position = raw.firstInvalidPosition {
            let error = UsageError(message: "Argument \(position) is not valid UTF-8", command: invocation.command)
            return failure(.usage(error), json: json, program: program)
        }
        switch invocation.action {
        case let .help(name):
            let command = name.flatMap(program.command(named:))
            let text = command.map { HelpText.help(for: $0, program: program) } ?? HelpText.rootHelp(of: program)
            return RunResult(standardOutput: json ? JSONOutput.help(text).line : text)
        case .version:
            let text = json ? JSONValue.object([("version", .string(Program.version))]).line : "tabstore \(Program.version)\n"
            return RunResult(standardOutput: text)
        case let .failure(error):
            return failure(.usage(error), json: json, program: program)
        case let .run(arguments):
            guard let command = Program.command(named: arguments.command) else {
                let error = UsageError(message: "Unknown subcommand \(shown(arguments.command))", command: nil)
                return failure(.usage(error), json: json, program: program)
            }
            let context = CommandContext(
                program: program, json: json, databaseOption: arguments.textOption("db"),
                environment: environment, command: arguments.command, servers: servers
            )
            if let companion = context.companion(for: command.spec, arguments: arguments) {
                return RunResult(handOver: companion)
            }
            do {
                return try command.result(arguments, in: context)
            } catch .store(let error) where !arguments.flag("escaped") && namesAnEscape(error) {
                return failure(.notFoundAsTyped(error), json: json, program: program)
            } catch {
                return failure(error, json: json, program: program)
            }
        }
    }

    /// Whether the set or title that named nothing (a tab's set was found) reads as other
    /// text through the escapes text output writes (`a\tb`): it may be copied from there.
    private static func namesAnEscape(_ error: TabStoreError) -> Bool {
        let name: String? = switch error.code {
        case .setNotFound: error.setName
        case .tabNotFound: error.title
        default: nil
        }
        return name.map(VisibleText.containsEscape) ?? false
    }

    /// `tabstore: error: ...`, one line; a usage error names the help that shows the usage.
    static func failure(_ error: CLIError, json: Bool, program: ProgramSpec) -> RunResult {
        let code = error.exitCode
        if json {
            return RunResult(standardError: JSONOutput.error(code: code, message: error.message.plain).line, exitCode: code)
        }
        var text = "\(program.name): error: \(error.message.shown)"
        if case let .usage(usage) = error {
            text += " (see '\(HelpText.helpCommand(for: usage.command, program: program))')"
        }
        return RunResult(standardError: text + "\n", exitCode: code)
    }
}
