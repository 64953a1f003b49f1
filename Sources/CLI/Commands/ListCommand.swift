import TabStoreKit

enum ListCommand: TextCommand {
    static let spec = CommandSpec(
        name: "list",
        abstract: "List every set, or the tabs of one set.",
        discussion: """
        Without SET: one line per set, sorted by name: the name, the tab count and the \
        selected tab's title ('-' for an empty set). With --json:
          {"sets":[{"set","tabCount","selectedIndex","selectedTitle","revision"}]}

        With SET: one line per tab, in order: '*' on the selected tab, the index, the \
        title; '(no tabs)' for an empty set, as 'show' says. With --json:
          \(JSONOutput.tabSetShape)

        A name or title holding control or invisible characters is shown with escapes \
        (a\\tb, \\u{1b}); every command reads it back in that spelling after --escaped.
        """,
        arguments: [.set("The set whose tabs to list; all sets when omitted.").withArity(.optional)]
    )

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String {
        let setName = arguments.optionalText("set")
        let store = try context.openStore()
        if let setName {
            let set = try storeCall { () throws(TabStoreError) in try store.tabSet(named: setName) }
            return context.json ? JSONOutput.tabSet(set).line : tabLines(set)
        }
        let summaries = try storeCall { () throws(TabStoreError) in try store.tabSets() }
        return context.json ? json(summaries).line : setLines(summaries)
    }

    /// `* 0  Home`, index right-aligned.
    static func tabLines(_ set: TabSet) -> String {
        if set.tabs.isEmpty { return "(no tabs)\n" }
        let indexWidth = String(max(set.tabs.count - 1, 0)).count
        return set.tabs.enumerated().map { index, tab in
            "\(tab.isSelected ? "*" : " ") \(rightAligned(String(index), to: indexWidth))  \(VisibleText.shown(tab.title))\n"
        }.joined()
    }

    /// `main    3 tabs  Home`: aligned by display width, so Korean and emoji names line up.
    static func setLines(_ summaries: [TabSetSummary]) -> String {
        let names = summaries.map { VisibleText.shown($0.name) }
        let nameWidth = names.map(displayWidth).max() ?? 0
        let countWidth = summaries.map { String($0.tabCount).count }.max() ?? 0
        return zip(names, summaries).map { name, summary in
            let count = rightAligned(String(summary.tabCount), to: countWidth) + (summary.tabCount == 1 ? " tab " : " tabs")
            return "\(padded(name, to: nameWidth))  \(count)  \(summary.selectedTitle.map(VisibleText.shown) ?? "-")\n"
        }.joined()
    }

    static func json(_ summaries: [TabSetSummary]) -> JSONValue {
        .object([("sets", .array(summaries.map { summary in
            .object([
                ("set", .string(summary.name)),
                ("tabCount", .int(summary.tabCount)),
                ("selectedIndex", JSONOutput.optional(summary.selectedIndex)),
                ("selectedTitle", JSONOutput.optional(summary.selectedTitle)),
                ("revision", .int(summary.revision)),
            ])
        }))])
    }
}
