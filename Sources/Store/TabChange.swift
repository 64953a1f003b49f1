#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One change to a tab set, as observers and `history` see it.
public struct TabChange: Sendable, Hashable, Codable {
    /// The set's name when the change happened (for `.setRenamed`, the old name).
    public let setName: String
    /// The set's revision after the change (unchanged for a reselection).
    public let revision: Int
    public let event: TabEvent
    /// When the change was committed: milliseconds since 1970-01-01 UTC.
    public let timestamp: Int

    public init(setName: String, revision: Int, event: TabEvent, timestamp: Int) {
        self.setName = setName
        self.revision = revision
        self.event = event
        self.timestamp = timestamp
    }
}

/// What happened to a set. Indices are as they stood at the time of the change.
public enum TabEvent: Sendable, Hashable, Codable {
    /// Tabs inserted, the first at `index`.
    case added(titles: [String], index: Int)
    /// Tabs removed, at their indices before the removal.
    case removed([TabUpdate])
    case moved(title: String, from: Int, to: Int)
    case renamed(index: Int, from: String, to: String)
    /// The update pairs (<doc:SelectionRules>): the old tab, now deselected, then the new one, now selected.
    case selectionChanged([TabUpdate])
    /// The selected tab was selected again: an event without a change. Seen only by
    /// observers in the process that made it, since it writes nothing.
    case reselected(TabUpdate)
    /// The whole tab list was replaced (`replaceTabs`, an import); reload the set.
    case replaced(tabCount: Int)
    /// A removed tab came back.
    case reopened(TabUpdate)
    case setRenamed(from: String, to: String)
    case setRemoved
    /// A tab's payload was set (``TabStore/setPayload(_:for:in:ifRevision:)-3xy1g``); read the set for it.
    case payloadChanged(TabUpdate)
}

extension TabEvent {
    /// The name of each kind of event, as the journal stores it and tabstore's JSON
    /// shows it (`"kind":"selected"`); its raw values are written only here.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case added
        case removed
        case moved
        case renamed
        case selectionChanged = "selected"
        case reselected
        case replaced
        case reopened
        case setRenamed = "set-renamed"
        case setRemoved = "set-removed"
        case payloadChanged = "payload-changed"
    }

    /// Which kind of event this is.
    public var kind: Kind {
        switch self {
        case .added: .added
        case .removed: .removed
        case .moved: .moved
        case .renamed: .renamed
        case .selectionChanged: .selectionChanged
        case .reselected: .reselected
        case .replaced: .replaced
        case .reopened: .reopened
        case .setRenamed: .setRenamed
        case .setRemoved: .setRemoved
        case .payloadChanged: .payloadChanged
        }
    }
}

/// Milliseconds since 1970-01-01 UTC, as the journal's `at` column counts them.
package func currentTimestamp() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
}
