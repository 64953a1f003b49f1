// A tab bar app, in a terminal so that it runs wherever Swift does: what an iOS app with
// a widget does with TabStoreKit, with typed lines standing in for taps. It keeps its tabs
// in an app group's container (the folder given), and shows the bar again whenever it
// changes, whoever changed it.
//
//   tap TITLE        select a tab (a tap on the selected one scrolls it to the top)
//   move FROM TO     drag: the tab at FROM to stand before the one at TO (onMove's offsets)
//   close TITLE      close a tab; reopen brings back the last one closed
//   cancel           take back the edits still waiting to be written
//   background       the app is about to be suspended; foreground: it is back
//
// The bar has a sticky copy (a second model of the same set), as the documents' store
// page does: both show the same state, edits still on their way included.
//
// Samples/GRDBComparison holds the same app written with GRDB, for comparison.
import Foundation
import Observation
import TabStoreFoundation
import TabStoreKit

@main @MainActor
enum TabStoreSampleApp {
    static func main() async {
        let container = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? ".")
        let store: TabStore
        do {
            // The store makes the folders it needs: a fresh container has none.
            store = try TabStore(url: container.appending(path: "Library/Application Support/tabs.sqlite"))
            try addDefaultTabs(to: store)
        } catch {
            say("cannot open the tabs: \(error.localizedDescription)")
            exit(1)
        }
        // The stored tabs are there before the first frame.
        let bar = TabBarModel(store: store, setName: "main")
        let sticky = TabBarModel(store: store, setName: "main")
        say("restored \(bar.selectedTab?.title ?? "no tab") at \(bar.lastSelectedIndex)")
        let screen = Screen(bar: bar, sticky: sticky)
        for await line in typedLines() {
            let (command, argument) = line.firstIndex(of: " ").map { (line[..<$0], String(line[line.index(after: $0)...])) } ?? (line[...], "")
            let offsets = argument.split(separator: " ").compactMap { Int($0) }
            switch (command, bar.tabs.first { $0.title == argument }) {
            case ("tap", let tab?):
                // The cells to reload are known at the tap, whole (the icon is in the payload).
                let changes = bar.select(tab.id).changes
                if !changes.isEmpty { say("reload " + changes.map(describe).joined(separator: ", ")) }
            case ("sticky-tap", let tab?): sticky.select(tab.id)
            case ("cancel", _):
                say("cancelled \(bar.pendingEdits.count) waiting")
                bar.cancelPendingEdits()
            case ("close", let tab?): bar.close(tab.id)
            case ("reopen", _): bar.reopen()
            case ("move", _) where offsets.count == 2: bar.move(fromOffsets: [offsets[0]], toOffset: offsets[1])
            case ("background", _):
                await store.suspend()
                say("suspended")
            case ("foreground", _): store.resume()
            case ("settle", _): await store.write { _ in }; say("settled")  // after every write asked for before
            case ("quit", _): break
            default: say("no such tab or command: \(line)")
            }
            if command == "quit" { break }
        }
        await bar.waitForPendingEdits()
        withExtendedLifetime(screen) {}
    }

    /// A cell to reload: where it was and where it is, with its icon.
    static func describe(_ change: TabBarModel.Change) -> String {
        func cell(_ update: TabUpdate?) -> String {
            guard let update else { return "none" }
            let icon = (try? update.tab.payload(as: Route.self))?.icon ?? "?"
            return "\(update.index) \(update.tab.title)\(update.tab.isSelected ? "*" : "") (\(icon))"
        }
        return cell(change.old) + " -> " + cell(change.new)
    }

    /// What each tab opens: the app's own type, kept as the tab's payload.
    struct Route: Codable {
        var path: String
        var icon: String
    }

    /// The tabs the app starts with, each with the screen it opens and its icon.
    static let defaultTabs: [(title: String, route: Route)] = [
        ("Home", Route(path: "/home", icon: "house")),
        ("All menu", Route(path: "/menu", icon: "list")),
        ("Reviews", Route(path: "/reviews", icon: "star")),
        ("Photos", Route(path: "/photos", icon: "photo")),
    ]

    /// Makes the set with its default tabs at the first launch, in one write; later
    /// launches keep it as the user left it.
    static func addDefaultTabs(to store: TabStore) throws(TabStoreError) {
        var tabs: [NewTab] = []
        for tab in defaultTabs { tabs.append(try NewTab(tab.title, payload: tab.route)) }
        try store.ensureSet("main", defaultTabs: tabs)
    }
}

/// The view: draws the bar whenever what it shows changes, as SwiftUI would.
@MainActor
final class Screen {
    let bar: TabBarModel
    let sticky: TabBarModel
    private var drawn = ""
    private var drawnSticky = ""
    private var reselections = 0

    init(bar: TabBarModel, sticky: TabBarModel) {
        self.bar = bar
        self.sticky = sticky
        draw()
    }

    /// A bar as a line: its tabs, what the selected one opens, and whether edits are on their way.
    private func line(_ bar: TabBarModel) -> String {
        let tabs = bar.tabs.map { $0.isSelected ? "[\($0.title)]" : $0.title }.joined(separator: " | ")
        let route = (try? bar.selectedTab?.payload(as: TabStoreSampleApp.Route.self))?.path ?? "nothing"
        let waiting = bar.pendingEdits.contains { $0.isWaitingForLock }
        return tabs + "  showing \(route)" + (waiting ? " (waiting for another app)" : bar.hasPendingEdits ? " (saving)" : "")
    }

    private func draw() {
        let (text, stickyText, reselection, error) = withObservationTracking {
            (line(bar), line(sticky), bar.reselection, bar.editError)
        } onChange: {
            Task { @MainActor in self.draw() }
        }
        if text != drawn { say(text) }
        drawn = text
        // The sticky header says only when it differs from the bar above it.
        if stickyText != drawnSticky, stickyText != text { say("sticky: " + stickyText) }
        drawnSticky = stickyText
        // Events, each said once: a re-tap, and an edit the store refused (taken back).
        if let reselection, reselection.count > reselections {
            reselections = reselection.count
            say("\(reselection.tab.title) scrolled to the top")
        }
        if let error {
            say("not saved: \(error.localizedDescription)")
            bar.editError = nil
        }
    }
}

/// Lines typed on standard input, read off the main actor.
func typedLines() -> AsyncStream<String> {
    AsyncStream { continuation in
        Thread.detachNewThread {
            while let line = readLine() { continuation.yield(line) }
            continuation.finish()
        }
    }
}

/// Writes a line at once, unbuffered: the screen of this app.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
