import Store

enum RenameCommand: TabstoreCommand {
    static let spec = CommandSpec(
        name: "rename",
        abstract: "Give a tab a new title.",
        discussion: """
        Prints 'renamed OLD to NEW'. With --json, the set:
          {"name","revision","selectedIndex","tabs":[{"index","title","selected"}]}
        """,
        arguments: [
            .set(), .tab,
            ArgumentSpec(name: "new-title", kind: .title, help: "The new title; taken as a title even when made of digits."),
        ],
        options: [.title]
    )

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String {
        let setName = try arguments.text("set")
        let ref = try arguments.tab("tab")
        let newTitle = try arguments.text("new-title")
        let store = try context.openStore()
        if context.json {
            let set = try storeCall { () throws(TabStoreError) in try store.rename(ref, to: newTitle, in: setName) }
            return JSONOutput.tabSet(set).line
        }
        // Store.rename does not return the old title; an index names it only in the set
        // as it was, so read the set first (a read changes nothing if the rename fails).
        var oldTitle: String?
        var before: TabSet?
        if case let .title(title) = ref {
            oldTitle = title
        } else {
            before = try storeCall { () throws(TabStoreError) in try store.tabSet(named: setName) }
        }
        let after = try storeCall { () throws(TabStoreError) in try store.rename(ref, to: newTitle, in: setName) }
        if oldTitle == nil, let before,
           let index = after.tabs.firstIndex(where: { $0.title.utf8.elementsEqual(newTitle.utf8) }),
           before.tabs.indices.contains(index) {
            oldTitle = before.tabs[index].title
        }
        return "renamed \(oldTitle ?? "the tab") to \(newTitle)\n"
    }
}
