/// `tabstore.1`, in the man macros, generated from the same declarations as the help text.
enum ManPage {
    static func page(of program: ProgramSpec, version: String) -> String {
        let name = program.name
        var lines = [
            #".TH \#(name.uppercased()) 1 "" "\#(name) \#(version)" "User Commands""#,
            ".SH NAME",
            "\(name) \\- \(escaped(program.abstract))",
            ".SH SYNOPSIS",
            ".B \(name)",
            ".I subcommand",
            "[\\fIarguments\\fR ...] [\\fB\\-\\-db\\fR \\fIpath\\fR] [\\fB\\-\\-json\\fR]",
            ".SH DESCRIPTION",
        ]
        lines += paragraphs(program.discussion)
        lines += [".SH OPTIONS"]
        lines += program.globalOptions.flatMap(option)
        lines += [".SH COMMANDS"]
        for command in program.visibleCommands {
            lines += [".SS \(escaped(command.name))", ".B \(escaped(HelpText.usage(of: command, program: program)))", ".PP", escaped(command.abstract)]
            lines += paragraphs(command.discussion)
            lines += command.arguments.flatMap { [".TP", "\\fI\(escaped($0.label))\\fR", escaped($0.help)] }
            lines += command.options.flatMap(option)
        }
        if !program.examples.isEmpty {
            lines += [".SH EXAMPLES"]
            for example in program.examples {
                lines += [".TP", "\\fB\(escaped(example.commandLine))\\fR", escaped(example.explanation)]
            }
        }
        for topic in program.topics {
            lines += [".SH \(escaped(topic.manSection))"]
            lines += topic.entries.flatMap { [".TP", ".B \(escaped($0.label))", escaped($0.text)] }
        }
        lines += [".SH ENVIRONMENT"]
        lines += environment.flatMap { [".TP", ".B \($0)", escaped($1)] }
        lines += [".SH SEE ALSO", ".BR sqlite3 (1)"]
        return lines.joined(separator: "\n") + "\n"
    }

    static let environment = [
        ("TABSTORE_DB", "The database file when --db is not given."),
        ("XDG_DATA_HOME", "The database is $XDG_DATA_HOME/tabstore/tabs.sqlite when neither --db nor TABSTORE_DB is given."),
        ("HOME", "Else the database is ~/.local/share/tabstore/tabs.sqlite."),
        ("COLUMNS", "The width 'show' draws in when --width is not given."),
        ("NO_COLOR", "When set and not empty, no escape codes: 'show' underlines with a second line."),
        ("TERM", "When 'dumb', no escape codes, as with NO_COLOR."),
    ] + ServerEnvironment.variables

    private static func option(_ option: OptionSpec) -> [String] {
        [".TP", "\\fB\(escaped(option.helpLabel))\\fR", escaped(option.help)]
    }

    /// Text paragraphs become `.PP`; lines indented with spaces (shapes, command lines)
    /// are kept as they are, unfilled.
    private static func paragraphs(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        var lines: [String] = []
        var inExample = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let isExample = line.hasPrefix(" ")
            if isExample != inExample {
                lines += isExample ? [".PP", ".RS 4", ".nf"] : [".fi", ".RE"]
                inExample = isExample
            }
            if line.isEmpty { continue }
            if !isExample { lines.append(".PP") }
            lines.append(escaped(isExample ? String(line.drop { $0 == " " }) : String(line)))
        }
        if inExample { lines += [".fi", ".RE"] }
        return lines
    }

    /// Text safe in a roff line: backslashes and hyphens escaped, a leading `.` or `'`
    /// defused, anything beyond ASCII as a `\[uXXXX]` glyph.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case _ where scalar.value > 0x7E:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: result.unicodeScalars.append(scalar)
            }
        }
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }
}
