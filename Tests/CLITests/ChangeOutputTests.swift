import Testing
@testable import TabStoreCLI
import TabStoreKit

/// The text and JSON of every kind of event, as `history` and `watch` print them.
@Suite struct ChangeOutputTests {
    private static func tab(_ index: Int, _ title: String, _ selected: Bool) -> TabUpdate {
        TabUpdate(index: index, tab: Tab(title: title, isSelected: selected))
    }

    static let events: [(TabEvent, String, String, String)] = [
        (.added(titles: ["Home", "All menu", "Reviews"], index: 0), "added", "added 3 tabs at 0: Home, All menu, Reviews",
         #"{"index":0,"titles":["Home","All menu","Reviews"]}"#),
        (.added(titles: ["Map"], index: 3), "added", "added 1 tab at 3: Map", #"{"index":3,"titles":["Map"]}"#),
        (.added(titles: [], index: 0), "added", "created the set (no tabs)", #"{"index":0,"titles":[]}"#),
        (.removed([tab(0, "Reviews", false)]), "removed", "removed 0: Reviews",
         #"{"tabs":[{"index":0,"title":"Reviews","selected":false}]}"#),
        (.removed([tab(1, "Home", true), tab(3, "홈", false)]), "removed", "removed 1: Home (selected), 3: 홈",
         #"{"tabs":[{"index":1,"title":"Home","selected":true},{"index":3,"title":"홈","selected":false}]}"#),
        (.moved(title: "Reviews", from: 2, to: 0), "moved", "moved Reviews from 2 to 0", #"{"title":"Reviews","from":2,"to":0}"#),
        (.renamed(index: 1, from: "Home", to: "Start"), "renamed", "renamed 1: Home -> Start", #"{"index":1,"from":"Home","to":"Start"}"#),
        (.selectionChanged([tab(0, "Home", false), tab(2, "Reviews", true)]), "selected", "selected 2: Reviews (was 0: Home)",
         #"{"updates":[{"index":0,"title":"Home","selected":false},{"index":2,"title":"Reviews","selected":true}]}"#),
        (.reselected(tab(2, "Reviews", true)), "reselected", "reselected 2: Reviews",
         #"{"tab":{"index":2,"title":"Reviews","selected":true}}"#),
        (.replaced(tabCount: 3), "replaced", "replaced all tabs (3 tabs)", #"{"tabCount":3}"#),
        (.replaced(tabCount: 1), "replaced", "replaced all tabs (1 tab)", #"{"tabCount":1}"#),
        (.reopened(tab(0, "Reviews", false)), "reopened", "reopened 0: Reviews", #"{"tab":{"index":0,"title":"Reviews","selected":false}}"#),
        (.setRenamed(from: "main", to: "other"), "set-renamed", "renamed set main -> other", #"{"from":"main","to":"other"}"#),
        (.setRemoved, "set-removed", "removed set", "{}"),
    ]

    @Test(arguments: events)
    func textKindAndJSON(event: TabEvent, kind: String, text: String, json: String) {
        #expect(ChangeOutput.text(event) == text)
        #expect(event.kind.rawValue == kind)
        #expect(ChangeOutput.json(event).rendered() == json)
    }

    @Test func everyKindIsDocumented() {
        for (event, kind, _, _) in Self.events {
            #expect(ChangeOutput.eventShapes.contains("\n  \(kind) ") || ChangeOutput.eventShapes.hasPrefix("  \(kind) "), "\(event)")
        }
    }

    @Test func aChangeLine() {
        let change = TabChange(setName: "main", revision: 7, event: .setRemoved, timestamp: 1_796_008_522_123)
        #expect(ChangeOutput.text(change) == "7  2026-11-30T03:15:22.123Z  removed set")
        #expect(ChangeOutput.text(change, revisionWidth: 3) == "  7  2026-11-30T03:15:22.123Z  removed set")
        #expect(ChangeOutput.json(change, includingSet: true).rendered()
            == #"{"set":"main","revision":7,"time":"2026-11-30T03:15:22.123Z","kind":"set-removed","event":{}}"#)
        #expect(ChangeOutput.json(change, includingSet: false).rendered()
            == #"{"revision":7,"time":"2026-11-30T03:15:22.123Z","kind":"set-removed","event":{}}"#)
    }

    @Test func aTitleNeverBreaksTheLine() {
        #expect(ChangeOutput.text(.moved(title: "a\nb", from: 0, to: 1)) == "moved a\\nb from 0 to 1")
    }
}
