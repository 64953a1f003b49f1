#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TabStoreKit

enum ShowCommand: TextCommand {
    static let spec = CommandSpec(
        name: "show",
        abstract: "Draw a set's tab bar, the selected tab underlined.",
        discussion: """
        Each title gets one space of padding on each side, so titles stand two columns \
        apart; Korean, Chinese, Japanese and emoji characters take two columns. On a \
        terminal the selected title is bold and underlined; with NO_COLOR set, TERM=dumb, \
        or when standard output is not a terminal, a second line of '‾' underlines it.

        When the tabs do not fit, the first and last columns show '‹' and '›' where \
        tabs are hidden, the columns between show whole tabs with the selected one as \
        near the middle as the ends allow, and a last line is the scroll indicator: a \
        track of '─' under those columns with a thumb of '━' as wide as the visible \
        share of the tabs (at least one column), starting at the hidden share on the \
        left, kept inside the track. An empty set prints '(no tabs)'.

        The width is --width, else $COLUMNS, else the terminal's width, else 80; at \
        least 10.

        With --json (the lines as without a terminal; visibleWidth is the columns \
        between the markers, or contentWidth when everything fits; offset is the \
        columns scrolled past; the visible indices are null for an empty set):
          {"set","width","contentWidth","visibleWidth","offset","widthRatio","leftOffsetRatio","selectedIndex","firstVisibleIndex","lastVisibleIndex","lines":[LINE,...]}
        """,
        arguments: [.set()],
        options: [
            OptionSpec(
                name: "width", kind: .integer(valueName: "columns", minimum: TabBarLayout.minimumWidth),
                help: "The width to draw in, 10 or more. Default: $COLUMNS, else the terminal's width, else 80."
            ),
        ]
    )

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String {
        let setName = try arguments.text("set")
        let width = try self.width(arguments, environment: context.environment)
        let store = try context.openStore()
        let set = try storeCall { () throws(TabStoreError) in try store.tabSet(named: setName) }
        let layout = TabBarLayout(titles: set.tabs.map(\.title), selectedIndex: set.selectedIndex, width: width)
        if context.json { return json(layout, set: setName).line }
        return lines(layout, usesANSI(context.environment) ? .ansi : .plain).map { $0 + "\n" }.joined()
    }

    /// What is drawn: the bar, or for an empty set one line saying so (with --json too).
    static func lines(_ layout: TabBarLayout, _ style: TabBarLayout.Style) -> [String] {
        layout.cells.isEmpty ? ["(no tabs)"] : layout.lines(style)
    }

    /// `--width`, else `$COLUMNS` (when a positive integer), else the terminal's, else 80;
    /// a narrower terminal is drawn at the minimum width.
    static func width(_ arguments: ParsedArguments, environment: Environment) throws(CLIError) -> Int {
        if let width = arguments.integerOption("width") { return width }
        let columns = environment.value("COLUMNS").flatMap(integerValue).flatMap { $0 > 0 ? $0 : nil }
        return max(columns ?? terminalColumns(STDOUT_FILENO) ?? 80, TabBarLayout.minimumWidth)
    }

    /// Bold and underline only for a terminal that takes escape codes.
    static func usesANSI(_ environment: Environment) -> Bool {
        allowsEscapeCodes(on: STDOUT_FILENO, environment: environment)
    }

    static func json(_ layout: TabBarLayout, set: String) -> JSONValue {
        .object([
            ("set", .string(set)),
            ("width", .int(layout.width)),
            ("contentWidth", .int(layout.contentWidth)),
            ("visibleWidth", .int(layout.visibleWidth)),
            ("offset", .int(layout.offset)),
            ("widthRatio", .double(layout.widthRatio)),
            ("leftOffsetRatio", .double(layout.leftOffsetRatio)),
            ("selectedIndex", JSONOutput.optional(layout.selectedIndex)),
            ("firstVisibleIndex", JSONOutput.optional(layout.cells.first?.index)),
            ("lastVisibleIndex", JSONOutput.optional(layout.cells.last?.index)),
            ("lines", .array(lines(layout, .plain).map(JSONValue.string))),
        ])
    }
}
