extension Example {
    /// Shown at the end of `tabstore --help` and in the man page's EXAMPLES.
    static let program = [
        Example(
            commandLine: #"tabstore add main Home "All menu" Reviews"#,
            explanation: "Add three tabs to the set 'main', creating it when missing."
        ),
        Example(
            commandLine: "tabstore select main Reviews",
            explanation: "Select the tab titled Reviews; 'select main -1' selects the last tab."
        ),
        Example(commandLine: "tabstore list main", explanation: "List the tabs of 'main', '*' on the selected one."),
        Example(
            commandLine: "tabstore --json restore main",
            explanation: "Print the selected tab as one line of JSON, for scripts."
        ),
        Example(
            commandLine: "tabstore export > tabs.json && tabstore import tabs.json --replace",
            explanation: "Save every set to a file, then put them back as they were."
        ),
        Example(
            commandLine: "source <(tabstore completions bash)",
            explanation: "Complete commands, options, set names and titles in bash."
        ),
    ]
}
