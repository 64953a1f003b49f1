/// The `change` table: one row per committed change, written in the same
/// transaction as the change itself.
extension Database {
    /// How many changes the journal keeps in all; older ones are dropped.
    static let journalLimit = 10_000

    /// Journals a change of the set `setID` (nil: of a set no longer there).
    func record(_ event: TabEvent, set setName: String, setID: Int?, revision: Int) throws(TabStoreError) {
        let (kind, detail) = event.journalForm
        try execute(
            """
            INSERT INTO change (set_name, revision, kind, detail, at, set_id)
            VALUES (?, ?, ?, ?, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), ?)
            """, .text(setName), .int(revision), .text(kind), .text(detail.rendered()), setID.map(SQLValue.int) ?? .null
        )
        // Trim now and then, not on every write: the journal may run 1% over its limit.
        if lastInsertedID % 100 == 0 {
            try execute("DELETE FROM change WHERE id <= ?", .int(lastInsertedID - Self.journalLimit))
        }
    }

    /// The id of the newest change, 0 when there is none.
    func lastChangeID() throws(TabStoreError) -> Int {
        let newest = try firstRow("SELECT max(id) FROM change") { $0.optionalInt(0) }
        return (newest ?? nil) ?? 0
    }

    /// Changes after `id`, oldest first, with their ids.
    func changes(after id: Int) throws(TabStoreError) -> [(id: Int, change: TabChange)] {
        var changes: [(id: Int, change: TabChange)] = []
        try forEachRow("SELECT id, set_name, revision, kind, detail, at FROM change WHERE id > ? ORDER BY id", .int(id)) { row in
            if let change = Self.change(from: row, columnOffset: 1) { changes.append((row.int(0), change)) }
        }
        return changes
    }

    /// The newest `limit` changes of a set, newest first. A set that was renamed has
    /// its own changes, under whichever name; otherwise (and for a name without a set)
    /// the changes journaled under the name, earlier sets of that name included. Either
    /// way each revision appears once, decreasing.
    func history(ofSet setName: String, limit: Int) throws(TabStoreError) -> [TabChange] {
        var changes: [TabChange] = []
        let columns = "SELECT set_name, revision, kind, detail, at FROM change"
        let renamedSetID = try firstRow(
            """
            SELECT s.id FROM tab_set s WHERE s.name = ?
            AND EXISTS (SELECT 1 FROM change WHERE set_id = s.id AND kind = 'set-renamed')
            """, .text(setName)
        ) { $0.int(0) }
        let collect = { (row: Statement) in
            if let change = Self.change(from: row, columnOffset: 0) { changes.append(change) }
        }
        if let renamedSetID {
            try forEachRow("\(columns) WHERE set_id = ? ORDER BY id DESC LIMIT ?", .int(renamedSetID), .int(limit), row: collect)
        } else {
            try forEachRow("\(columns) WHERE set_name = ? ORDER BY id DESC LIMIT ?", .text(setName), .int(limit), row: collect)
        }
        return changes
    }

    /// Unlinks a removed set's changes from its id, which a new set may get.
    func forgetSetID(_ setID: Int) throws(TabStoreError) {
        try execute("UPDATE change SET set_id = NULL WHERE set_id = ?", .int(setID))
    }

    /// A journal row read back; `nil` for a row this binary cannot read (skipped, not fatal).
    private static func change(from row: Statement, columnOffset first: Int32) -> TabChange? {
        guard let detail = try? JSONValue.parse(Array(row.text(first + 3).utf8)),
              let event = TabEvent(kind: row.text(first + 2), detail: detail)
        else { return nil }
        return TabChange(setName: row.text(first), revision: row.int(first + 1), event: event, timestamp: row.int(first + 4))
    }
}

extension TabEvent {
    /// The `kind` and JSON `detail` stored for the event.
    var journalForm: (kind: String, detail: JSONValue) {
        switch self {
        case let .added(titles, index):
            return ("added", .object([("titles", .array(titles.map(JSONValue.string))), ("index", .int(index))]))
        case let .removed(tabs):
            return ("removed", .object([("tabs", .array(tabs.map(\.json)))]))
        case let .moved(title, from, to):
            return ("moved", .object([("title", .string(title)), ("from", .int(from)), ("to", .int(to))]))
        case let .renamed(index, from, to):
            return ("renamed", .object([("index", .int(index)), ("from", .string(from)), ("to", .string(to))]))
        case let .selectionChanged(updates):
            return ("selected", .object([("updates", .array(updates.map(\.json)))]))
        case let .reselected(tab):
            return ("reselected", tab.json)
        case let .replaced(count):
            return ("replaced", .object([("tabCount", .int(count))]))
        case let .reopened(tab):
            return ("reopened", tab.json)
        case let .setRenamed(from, to):
            return ("set-renamed", .object([("from", .string(from)), ("to", .string(to))]))
        case .setRemoved:
            return ("set-removed", .object([]))
        }
    }

    init?(kind: String, detail: JSONValue) {
        switch kind {
        case "added":
            guard let titles = detail["titles"]?.strings, case let .int(index)? = detail["index"] else { return nil }
            self = .added(titles: titles, index: index)
        case "removed":
            guard let tabs = detail["tabs"]?.tabUpdates else { return nil }
            self = .removed(tabs)
        case "moved":
            guard case let .string(title)? = detail["title"], case let .int(from)? = detail["from"],
                  case let .int(to)? = detail["to"] else { return nil }
            self = .moved(title: title, from: from, to: to)
        case "renamed":
            guard case let .int(index)? = detail["index"], case let .string(from)? = detail["from"],
                  case let .string(to)? = detail["to"] else { return nil }
            self = .renamed(index: index, from: from, to: to)
        case "selected":
            guard let updates = detail["updates"]?.tabUpdates else { return nil }
            self = .selectionChanged(updates)
        case "reselected":
            guard let tab = detail.tabUpdate else { return nil }
            self = .reselected(tab)
        case "replaced":
            guard case let .int(count)? = detail["tabCount"] else { return nil }
            self = .replaced(tabCount: count)
        case "reopened":
            guard let tab = detail.tabUpdate else { return nil }
            self = .reopened(tab)
        case "set-renamed":
            guard case let .string(from)? = detail["from"], case let .string(to)? = detail["to"] else { return nil }
            self = .setRenamed(from: from, to: to)
        case "set-removed":
            self = .setRemoved
        default:
            return nil
        }
    }
}

extension TabUpdate {
    /// `{"index","title","selected"}`: the shape every tab has in tabstore's JSON.
    package var json: JSONValue {
        .object([("index", .int(index)), ("title", .string(tab.title)), ("selected", .bool(tab.isSelected))])
    }
}

private extension JSONValue {
    var strings: [String]? {
        guard case let .array(values) = self else { return nil }
        var strings: [String] = []
        for case let .string(text) in values { strings.append(text) }
        return strings.count == values.count ? strings : nil
    }

    var tabUpdate: TabUpdate? {
        guard case let .int(index)? = self["index"], case let .string(title)? = self["title"],
              case let .bool(selected)? = self["selected"] else { return nil }
        return TabUpdate(index: index, tab: Tab(title: title, isSelected: selected))
    }

    var tabUpdates: [TabUpdate]? {
        guard case let .array(values) = self else { return nil }
        let updates = values.compactMap(\.tabUpdate)
        return updates.count == values.count ? updates : nil
    }
}
