/// One edit as a device recorded it for sync: the rule it ran, with tabs named by id, so
/// that the server can plan the same rule on its own state (<doc:OfflineSync>). A device records
/// one or more in the transaction of each edit; the server applies each once, in order.
///
/// Its `Codable` form is part of the sync message format (``TabSyncPush``): an object
/// with one key, the case, e.g. `{"select": {"set": "main", "id": "0f8f..."}}`.
public enum TabMutation: Sendable, Hashable, Codable {
    /// New tabs, standing before the tab `before` (at the end when it is nil or gone).
    /// `creatingSet`: make the set when it is missing, else the add is refused.
    case add(set: String, tabs: [SyncedTab], before: TabID?, creatingSet: Bool)
    /// Removes these tabs; ids no longer in the set are left out (already gone).
    case remove(set: String, ids: [TabID])
    /// Moves a tab to stand before `before` (at the end when it is nil or gone); a tab no
    /// longer in the set is not moved.
    case move(set: String, id: TabID, before: TabID?)
    case rename(set: String, id: TabID, title: String)
    case select(set: String, id: TabID)
    /// The tab's whole payload.
    case setPayload(set: String, id: TabID, payload: [String: String])
    /// Makes the set with these tabs (the first selected) when it is missing; leaves it as
    /// it is when it exists (``TabStore/ensureSet(_:defaultTabs:)-9nw0t``, and a device's sets
    /// when it starts syncing).
    case ensureSet(set: String, tabs: [SyncedTab])
    /// The set as a whole: its tabs, their order and the selected one (nil: none). What an
    /// edit without a finer intent records (a replace, an import, a reopen, a payload).
    /// `replacing`: the ids of the tabs the device's set had before the edit (none when it
    /// made the set): a tab elsewhere that is not among them, nor kept, is one the device
    /// never saw, and the put is refused rather than erase it (`.replacesUnseenTabs`).
    case put(set: String, tabs: [SyncedTab], selectedIndex: Int?, replacing: [TabID])
    case renameSet(set: String, to: String)
    /// Removes the set; one already gone stays gone.
    case removeSet(set: String)
    /// A mutation this library cannot read: of a kind it does not know (a newer device's),
    /// or of a known kind with a field missing or of the wrong type (`problem` says which).
    /// A server settles it as refused (``TabStoreError/Code/invalidMutation``), so that the
    /// device's later mutations are applied. No device records one.
    case unreadable(kind: String, problem: String)

    /// The kinds a message names, as the `Codable` form spells them: another is unreadable.
    static let kinds: Set<String> = [
        "add", "remove", "move", "rename", "select", "setPayload", "ensureSet", "put", "renameSet", "removeSet", "unreadable",
    ]

    /// The sets the mutation reads or writes.
    public var setNames: [String] {
        switch self {
        case let .add(set, _, _, _), let .remove(set, _), let .move(set, _, _), let .rename(set, _, _),
             let .select(set, _), let .setPayload(set, _, _), let .ensureSet(set, _), let .put(set, _, _, _), let .removeSet(set):
            [set]
        case let .renameSet(set, to): [set, to]
        case .unreadable: []
        }
    }
}

/// A tab as a mutation carries it: its id, title and payload.
public struct SyncedTab: Sendable, Hashable, Codable {
    public let id: TabID
    public let title: String
    public let payload: [String: String]

    public init(id: TabID, title: String, payload: [String: String] = [:]) {
        self.id = id
        self.title = title
        self.payload = payload
    }

    init(_ tab: Tab) {
        self.init(id: tab.id, title: tab.title, payload: tab.payload)
    }

    var newTab: NewTab { NewTab(title: title, uuid: id, payload: payload) }
}

// How a device file keeps a mutation in its log (sync_mutation.body): fields as
// length-prefixed text (`5:hello`), so that any title reads back byte for byte, with no
// coder in the library. A body that does not read back is refused, never guessed.
extension TabMutation {
    package var stored: String {
        var fields: [String]
        switch self {
        case let .add(set, tabs, before, creatingSet):
            fields = ["add", set, before?.uuidString ?? "", creatingSet ? "1" : "0"] + Self.fields(of: tabs)
        case let .remove(set, ids):
            fields = ["remove", set] + ids.map(\.uuidString)
        case let .move(set, id, before):
            fields = ["move", set, id.uuidString, before?.uuidString ?? ""]
        case let .rename(set, id, title):
            fields = ["rename", set, id.uuidString, title]
        case let .select(set, id):
            fields = ["select", set, id.uuidString]
        case let .setPayload(set, id, payload):
            fields = ["payload", set] + Self.fields(of: [SyncedTab(id: id, title: "", payload: payload)])
        case let .ensureSet(set, tabs):
            fields = ["ensure", set] + Self.fields(of: tabs)
        case let .put(set, tabs, selectedIndex, replacing):
            fields = ["put", set, selectedIndex.map(String.init) ?? "", String(replacing.count)] + replacing.map(\.uuidString) + Self.fields(of: tabs)
        case let .renameSet(set, to):
            fields = ["rename-set", set, to]
        case let .removeSet(set):
            fields = ["remove-set", set]
        case let .unreadable(kind, problem):
            fields = ["unreadable", kind, problem]
        }
        return fields.map { "\($0.utf8.count):\($0)" }.joined()
    }

    package init?(stored: String) {
        guard let fields = Self.split(stored), fields.count >= 2 else { return nil }
        let set = fields[1]
        let rest = Array(fields.dropFirst(2))
        func id(_ text: String) -> TabID?? { text.isEmpty ? .some(nil) : TabID(text).map { .some($0) } }
        switch fields[0] {
        case "add":
            guard rest.count >= 2, let before = id(rest[0]), let tabs = Self.tabs(rest.dropFirst(2)) else { return nil }
            self = .add(set: set, tabs: tabs, before: before, creatingSet: rest[1] == "1")
        case "remove":
            let ids = rest.compactMap(TabID.init)
            guard ids.count == rest.count else { return nil }
            self = .remove(set: set, ids: ids)
        case "move":
            guard rest.count == 2, let tab = TabID(rest[0]), let before = id(rest[1]) else { return nil }
            self = .move(set: set, id: tab, before: before)
        case "rename":
            guard rest.count == 2, let tab = TabID(rest[0]) else { return nil }
            self = .rename(set: set, id: tab, title: rest[1])
        case "select":
            guard rest.count == 1, let tab = TabID(rest[0]) else { return nil }
            self = .select(set: set, id: tab)
        case "payload":
            guard let tabs = Self.tabs(rest[...]), tabs.count == 1 else { return nil }
            self = .setPayload(set: set, id: tabs[0].id, payload: tabs[0].payload)
        case "ensure":
            guard let tabs = Self.tabs(rest[...]) else { return nil }
            self = .ensureSet(set: set, tabs: tabs)
        case "put":
            guard rest.count >= 2, let count = Int(rest[1]), count >= 0, count <= rest.count - 2 else { return nil }
            let replacing = rest[2..<2 + count].compactMap(TabID.init)
            guard replacing.count == count, let tabs = Self.tabs(rest.dropFirst(2 + count)) else { return nil }
            let selected = rest[0].isEmpty ? nil : Int(rest[0])
            guard rest[0].isEmpty || selected != nil else { return nil }
            self = .put(set: set, tabs: tabs, selectedIndex: selected, replacing: replacing)
        case "rename-set":
            guard rest.count == 1 else { return nil }
            self = .renameSet(set: set, to: rest[0])
        case "remove-set":
            guard rest.isEmpty else { return nil }
            self = .removeSet(set: set)
        case "unreadable":
            guard rest.count == 1 else { return nil }
            self = .unreadable(kind: set, problem: rest[0])
        default:
            return nil
        }
    }

    /// Each tab as its id, title, and how many payload entries follow as key, value.
    private static func fields(of tabs: [SyncedTab]) -> [String] {
        tabs.flatMap { tab in
            [tab.id.uuidString, tab.title, String(tab.payload.count)]
                + tab.payload.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.flatMap { [$0.key, $0.value] }
        }
    }

    private static func tabs(_ fields: ArraySlice<String>) -> [SyncedTab]? {
        var tabs: [SyncedTab] = []
        var rest = fields
        while !rest.isEmpty {
            // The count is checked against what is left before any arithmetic on it.
            guard rest.count >= 3, let id = TabID(rest[rest.startIndex]), let count = Int(rest[rest.startIndex + 2]),
                  count >= 0, count <= (rest.count - 3) / 2 else { return nil }
            let title = rest[rest.startIndex + 1]
            var payload: [String: String] = [:]
            for entry in 0..<count {
                payload[rest[rest.startIndex + 3 + 2 * entry]] = rest[rest.startIndex + 4 + 2 * entry]
            }
            tabs.append(SyncedTab(id: id, title: title, payload: payload))
            rest = rest.dropFirst(3 + 2 * count)
        }
        return tabs
    }

    /// The fields of a length-prefixed text; nil when it is not one.
    private static func split(_ text: String) -> [String]? {
        let bytes = Array(text.utf8)
        var fields: [String] = []
        var place = 0
        while place < bytes.count {
            var length = 0
            var digits = 0
            while place < bytes.count, bytes[place] >= UInt8(ascii: "0"), bytes[place] <= UInt8(ascii: "9"), digits < 9 {
                length = length * 10 + Int(bytes[place] - UInt8(ascii: "0"))
                place += 1
                digits += 1
            }
            guard digits > 0, place < bytes.count, bytes[place] == UInt8(ascii: ":"), bytes.count - place - 1 >= length else { return nil }
            place += 1
            // Lengths count UTF-8 bytes of a String, so a field never splits a character.
            guard let field = String(validating: bytes[place..<place + length], as: UTF8.self) else { return nil }
            fields.append(field)
            place += length
        }
        return fields
    }
}

extension TabMutation: CustomStringConvertible {
    /// The edit for a person: what it did, naming the set (and a title where it has one).
    public var description: String {
        func titles(_ tabs: [SyncedTab]) -> String {
            tabs.count == 1 ? "\(quoted(tabs[0].title).shown)" : "\(tabs.count) tabs"
        }
        let set = { (name: String) in "set \(quoted(name).shown)" }
        switch self {
        case let .add(name, tabs, _, _): return "add \(titles(tabs)) to \(set(name))"
        case let .remove(name, ids): return "remove \(ids.count == 1 ? "a tab" : "\(ids.count) tabs") from \(set(name))"
        case let .move(name, _, _): return "move a tab of \(set(name))"
        case let .rename(name, _, title): return "rename a tab of \(set(name)) to \(quoted(title).shown)"
        case let .select(name, _): return "select a tab of \(set(name))"
        case let .setPayload(name, _, _): return "set a tab's data in \(set(name))"
        case let .ensureSet(name, _): return "make \(set(name))"
        case let .put(name, tabs, _, _): return "set the \(tabs.count) tabs of \(set(name))"
        case let .renameSet(name, to): return "rename \(set(name)) to \(quoted(to).shown)"
        case let .removeSet(name): return "remove \(set(name))"
        case let .unreadable(kind, _): return "a mutation \(quoted(kind).shown) this tabstore cannot read"
        }
    }
}
