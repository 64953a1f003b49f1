import TabStoreKit

/// How `history` and `watch` show a change, in one place so the two always agree.
///
/// Text: `REVISION  TIME  WHAT`, e.g. `4  2026-11-30T03:15:22.123Z  selected 2: Reviews (was 0: Home)`.
/// JSON: `{"revision","time","kind","event"}`, plus `"set"` first for `watch`; each kind
/// has one event shape, listed in `eventShapes`.
enum ChangeOutput {
    /// The event shapes, for the help of `history` and `watch`.
    static let eventShapes = """
      added        {"index","titles":[TITLE,...]}
      removed      {"tabs":[{"index","title","selected"}]}
      moved        {"title","from","to"}
      renamed      {"index","from","to"}
      selected     {"updates":[{"index","title","selected"}]}
      reselected   {"tab":{"index","title","selected"}}
      replaced     {"tabCount"}
      reopened     {"tab":{"index","title","selected"}}
      set-renamed  {"from","to"}
      set-removed  {}
      payload-changed {"tab":{"index","title","selected"}}
    """

    /// One line: the revision (right-aligned to `revisionWidth`), the UTC time, what happened.
    static func text(_ change: TabChange, revisionWidth: Int = 0) -> String {
        "\(rightAligned(String(change.revision), to: revisionWidth))  \(UTCTime.iso8601(milliseconds: change.timestamp))  \(text(change.event))"
    }

    /// `selected 2: Reviews (was 0: Home)`: indices as they stood when it happened.
    static func text(_ event: TabEvent) -> String {
        switch event {
        case let .added(titles, index):
            // Only a new set is journaled with no tabs added: said as `add` said it.
            if titles.isEmpty { return "created the set (no tabs)" }
            return "added \(counted(titles.count, "tab", "tabs")) at \(index): " + titles.map(shownTitle).joined(separator: ", ")
        case let .removed(tabs):
            return "removed " + tabs.map(shownTab).joined(separator: ", ")
        case let .moved(title, from, to):
            return "moved \(shownTitle(title)) from \(from) to \(to)"
        case let .renamed(index, from, to):
            return "renamed \(index): \(shownTitle(from)) -> \(shownTitle(to))"
        case let .selectionChanged(updates):
            // The update pair: the old tab deselected, then the new one selected.
            guard let new = updates.first(where: \.tab.isSelected) else { return "selected nothing" }
            let old = updates.first { !$0.tab.isSelected }
            return "selected \(new.index): \(shownTitle(new.tab.title))" + (old.map { " (was \($0.index): \(shownTitle($0.tab.title)))" } ?? "")
        case let .reselected(tab):
            return "reselected \(tab.index): \(shownTitle(tab.tab.title))"
        case let .replaced(count):
            return "replaced all tabs (\(counted(count, "tab", "tabs")))"
        case let .reopened(tab):
            return "reopened " + shownTab(tab)
        case let .setRenamed(from, to):
            return "renamed set \(shownTitle(from)) -> \(shownTitle(to))"
        case .setRemoved:
            return "removed set"
        case let .payloadChanged(tab):
            return "set data of " + shownTab(tab)
        }
    }

    /// `{"set","revision","time","kind","event"}`; `"set"` is left out when the caller names it once.
    static func json(_ change: TabChange, includingSet: Bool) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = includingSet ? [("set", .string(change.setName))] : []
        members += [
            ("revision", .int(change.revision)),
            ("time", .string(UTCTime.iso8601(milliseconds: change.timestamp))),
            ("kind", .string(change.event.kind.rawValue)),
            ("event", json(change.event)),
        ]
        return .object(members)
    }

    /// The event object; one shape per kind, as `eventShapes` lists.
    static func json(_ event: TabEvent) -> JSONValue {
        switch event {
        case let .added(titles, index):
            .object([("index", .int(index)), ("titles", .array(titles.map(JSONValue.string)))])
        case let .removed(tabs):
            .object([("tabs", .array(tabs.map(tab)))])
        case let .moved(title, from, to):
            .object([("title", .string(title)), ("from", .int(from)), ("to", .int(to))])
        case let .renamed(index, from, to):
            .object([("index", .int(index)), ("from", .string(from)), ("to", .string(to))])
        case let .selectionChanged(updates):
            .object([("updates", .array(updates.map(tab)))])
        case let .reselected(tab), let .reopened(tab), let .payloadChanged(tab):
            .object([("tab", self.tab(tab))])
        case let .replaced(count):
            .object([("tabCount", .int(count))])
        case let .setRenamed(from, to):
            .object([("from", .string(from)), ("to", .string(to))])
        case .setRemoved:
            .object([])
        }
    }

    /// `{"index","title","selected"}`: a tab as every JSON output shows it.
    private static func tab(_ update: TabUpdate) -> JSONValue {
        JSONOutput.tab(index: update.index, update.tab)
    }

    /// `2: Reviews`, with ` (selected)` when it was the selected tab.
    private static func shownTab(_ tab: TabUpdate) -> String {
        "\(tab.index): \(shownTitle(tab.tab.title))" + (tab.tab.isSelected ? " (selected)" : "")
    }

    /// A file written by another program can hold any title: made visible, as every text output shows stored text.
    private static func shownTitle(_ title: String) -> String {
        VisibleText.shown(title)
    }
}
