import TabStoreKit

/// The `--json` shapes, keys in the order the help texts show them.
enum JSONOutput {
    /// What ``tabSet(_:)`` prints, as the help of every command that prints a set shows it.
    static let tabSetShape = #"{"set","revision","selectedIndex","tabs":[{"index","id","title","selected","payload":{KEY:VALUE}}]}"#

    /// A set is `"set"` in every command's output, as in select's and history's.
    static func tabSet(_ set: TabSet) -> JSONValue {
        .object([
            ("set", .string(set.name)),
            ("revision", .int(set.revision)),
            ("selectedIndex", optional(set.selectedIndex)),
            ("tabs", .array(set.tabs.enumerated().map { storedTab(index: $0.offset, $0.element) })),
        ])
    }

    /// `{"index","id","title","selected","payload":{KEY:VALUE,...}}`: a tab of a set as
    /// stored, payload keys in byte order.
    static func storedTab(index: Int, _ tab: Tab) -> JSONValue {
        let keys = tab.payload.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return .object([
            ("index", .int(index)), ("id", .string(tab.id.uuidString)), ("title", .string(tab.title)),
            ("selected", .bool(tab.isSelected)),
            ("payload", .object(keys.map { ($0, JSONValue.string(tab.payload[$0]!)) })),
        ])
    }

    /// `{"index","title","selected"}`.
    static func tab(index: Int, _ tab: Tab) -> JSONValue {
        .object([("index", .int(index)), ("title", .string(tab.title)), ("selected", .bool(tab.isSelected))])
    }

    static func optional(_ value: Int?) -> JSONValue {
        value.map(JSONValue.int) ?? .null
    }

    static func optional(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    /// `{"help":TEXT}`: the help text, whole, as one string.
    static func help(_ text: String) -> JSONValue {
        .object([("help", .string(text))])
    }

    /// `{"error":{"code","message"}}`.
    static func error(code: Int32, message: String) -> JSONValue {
        .object([("error", .object([("code", .int(Int(code))), ("message", .string(message))]))])
    }
}

extension JSONValue {
    /// Compact, one line, with the trailing newline.
    var line: String { rendered() + "\n" }
}
