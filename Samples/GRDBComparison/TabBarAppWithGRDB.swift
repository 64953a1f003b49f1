// The sample app (Samples/TabBarApp) written with GRDB instead of TabStoreKit, for comparison:
// the same commands, the same screen, the same behaviour under another process's lock, a
// re-tap, a drag, close and reopen, edits made by other processes, suspension and refusals.
// Not built by this package (GRDB is not a dependency): Samples/GRDBComparison/README.md says
// how it was built and checked, and how the lines of the two were counted.
//
//   tap TITLE        select a tab (a tap on the selected one scrolls it to the top)
//   move FROM TO     drag: the tab at FROM to stand before the one at TO (onMove's offsets)
//   close TITLE      close a tab; reopen brings back the last one closed
//   background       the app is about to be suspended; foreground: it is back
import Foundation
import GRDB
import Observation

struct TabRow: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "tab"
    var id = UUID().uuidString
    var position: Int
    var title: String
    var route: String
    var icon: String
    var isSelected: Bool
}

/// A closed tab, remembered so that `reopen` can bring it back where it was.
struct ClosedTab: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "closedTab"
    var number: Int64?
    var tab: String  // the TabRow, as JSON
}

enum TabError: LocalizedError {
    case gone(String)
    case nothingToReopen

    var errorDescription: String? {
        switch self {
        case let .gone(what): "\(what) is no longer there"
        case .nothingToReopen: "no closed tab to reopen"
        }
    }
}

let defaultTabs = [("Home", "/home", "house"), ("All menu", "/menu", "list"), ("Reviews", "/reviews", "star"), ("Photos", "/photos", "photo")]

/// Opens the database in the app group's container, making its folders, and sets it up
/// with the default tabs at the first launch.
func openDatabase(in container: URL) throws -> DatabasePool {
    let folder = container.appending(path: "Library/Application Support")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    var configuration = Configuration()
    configuration.busyMode = .timeout(5)
    configuration.observesSuspensionNotifications = true
    let pool = try DatabasePool(path: folder.appending(path: "tabs.sqlite").path, configuration: configuration)
    var migrator = DatabaseMigrator()
    migrator.registerMigration("tabs") { db in
        try db.create(table: "tab") { table in
            table.primaryKey("id", .text)
            table.column("position", .integer).notNull()
            table.column("title", .text).notNull().unique()
            table.column("route", .text).notNull()
            table.column("icon", .text).notNull()
            table.column("isSelected", .boolean).notNull()
        }
        try db.create(table: "closedTab") { table in
            table.autoIncrementedPrimaryKey("number")
            table.column("tab", .text).notNull()
        }
        for (position, tab) in defaultTabs.enumerated() {
            try TabRow(position: position, title: tab.0, route: tab.1, icon: tab.2, isSelected: position == 0).insert(db)
        }
    }
    try migrator.migrate(pool)
    return pool
}

func fetchTabs(_ db: Database) throws -> [TabRow] {
    try TabRow.order(Column("position")).fetchAll(db)
}

/// Stores `tabs` in their order, as they are.
func save(_ tabs: [TabRow], _ db: Database) throws {
    for (position, var tab) in tabs.enumerated() {
        tab.position = position
        try tab.save(db)
    }
}

/// The bar's state for the screen: the stored tabs with the edits not yet saved applied.
@MainActor @Observable
final class TabBar {
    typealias Rule = @Sendable ([TabRow]) -> [TabRow]

    private(set) var tabs: [TabRow] = []
    private(set) var reselection: (title: String, count: Int)?
    var editError: (any Error)?
    var hasPendingEdits: Bool { !pending.isEmpty }
    var selectedTab: TabRow? { tabs.first(where: \.isSelected) }
    var lastSelectedIndex: Int { tabs.firstIndex(where: \.isSelected) ?? 0 }

    @ObservationIgnored private let pool: DatabasePool
    @ObservationIgnored private var stored: [TabRow]
    private var pending: [(number: Int, rule: Rule?)] = []
    @ObservationIgnored private var edits = 0
    @ObservationIgnored private var lastWrite: Task<Void, Never>?
    @ObservationIgnored private var suspended = false
    @ObservationIgnored private var waitingForResume: [CheckedContinuation<Void, Never>] = []
    @ObservationIgnored private var polling: Task<Void, Never>?

    init(pool: DatabasePool) throws {
        self.pool = pool
        stored = try pool.read(fetchTabs)
        refresh()
        // ValueObservation does not see other processes' commits (GRDB's docs): a widget's,
        // or the command line's. Look for them instead; that sees this process's too.
        polling = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(50))
                guard let self, let fresh = try? await pool.read(fetchTabs), fresh != stored else { continue }
                stored = fresh
                refresh()
            }
        }
    }

    func select(_ id: String) {
        if let selected = selectedTab, selected.id == id {
            reselection = (selected.title, (reselection?.count ?? 0) + 1)
            return
        }
        let rule: Rule = { tabs in tabs.map { var tab = $0; tab.isSelected = tab.id == id; return tab } }
        perform(rule) { db in
            let tabs = try fetchTabs(db)
            guard tabs.contains(where: { $0.id == id }) else { throw TabError.gone("the tab") }
            try save(rule(tabs), db)
        }
    }

    /// SwiftUI's `onMove`: the tabs at `offsets` to stand before the one at `destination`,
    /// named by id, so that a tab another process added meanwhile does not change which move.
    func move(fromOffsets offsets: [Int], toOffset destination: Int) {
        let ids = offsets.map { tabs[$0].id }
        let anchor = tabs[destination...].first { !ids.contains($0.id) }?.id
        let rule: Rule = { tabs in
            var staying = tabs.filter { !ids.contains($0.id) }
            let index = anchor.flatMap { anchor in staying.firstIndex { $0.id == anchor } } ?? staying.count
            staying.insert(contentsOf: tabs.filter { ids.contains($0.id) }, at: index)
            return staying
        }
        perform(rule) { db in try save(rule(try fetchTabs(db)), db) }
    }

    /// Closes a tab; when it was selected, its right neighbour is (or the new last tab).
    func close(_ id: String) {
        let rule: Rule = { tabs in
            guard let index = tabs.firstIndex(where: { $0.id == id }) else { return tabs }
            var staying = tabs
            if staying.remove(at: index).isSelected, !staying.isEmpty { staying[min(index, staying.count - 1)].isSelected = true }
            return staying
        }
        perform(rule) { db in
            let tabs = try fetchTabs(db)
            guard let closed = tabs.first(where: { $0.id == id }) else { throw TabError.gone("the tab") }
            try ClosedTab(tab: String(decoding: try JSONEncoder().encode(closed), as: UTF8.self)).insert(db)
            try closed.delete(db)
            try save(rule(tabs), db)
        }
    }

    /// Brings back the last closed tab where it was, selected again if it was.
    func reopen() {
        perform(nil) { db in
            guard let closed = try ClosedTab.order(Column("number").desc).fetchOne(db) else { throw TabError.nothingToReopen }
            var tab = try JSONDecoder().decode(TabRow.self, from: Data(closed.tab.utf8))
            var tabs = try fetchTabs(db)
            if tab.isSelected || tabs.isEmpty {
                tabs = tabs.map { var other = $0; other.isSelected = false; return other }
                tab.isSelected = true
            }
            tabs.insert(tab, at: min(tab.position, tabs.count))
            _ = try closed.delete(db)
            try save(tabs, db)
        }
    }

    /// The app is about to be suspended: no write may hold a lock (GRDB interrupts a running
    /// one); edits made meanwhile are shown and saved once it is back.
    func suspend() {
        suspended = true
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
    }

    func resume() {
        suspended = false
        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
        for waiting in waitingForResume { waiting.resume() }
        waitingForResume = []
    }

    /// Returns once every edit made so far is saved or taken back.
    func waitForPendingEdits() async {
        await lastWrite?.value
    }

    /// Shows the edit at once (the rule applied to what is shown), then writes it after the
    /// edits before it; a write that fails takes the edit back and keeps its error.
    private func perform(_ rule: Rule?, _ write: @escaping @Sendable (Database) throws -> Void) {
        edits += 1
        let number = edits
        pending.append((number, rule))
        refresh()
        let previous = lastWrite
        lastWrite = Task {
            await previous?.value
            while suspended { await withCheckedContinuation { waitingForResume.append($0) } }
            do {
                stored = try await pool.write { db in
                    try write(db)
                    return try fetchTabs(db)
                }
            } catch {
                editError = error
            }
            pending.removeAll { $0.number == number }
            refresh()
        }
    }

    private func refresh() {
        let shown = pending.reduce(stored) { tabs, edit in edit.rule?(tabs) ?? tabs }
        if tabs != shown { tabs = shown }
    }
}

@main @MainActor
enum TabBarAppWithGRDB {
    static func main() async {
        let container = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? ".")
        let bar: TabBar
        do {
            bar = try TabBar(pool: try openDatabase(in: container))
        } catch {
            say("cannot open the tabs: \(error.localizedDescription)")
            exit(1)
        }
        say("restored \(bar.selectedTab?.title ?? "no tab") at \(bar.lastSelectedIndex)")
        let screen = Screen(bar: bar)
        for await line in typedLines() {
            let (command, argument) = line.firstIndex(of: " ").map { (line[..<$0], String(line[line.index(after: $0)...])) } ?? (line[...], "")
            let offsets = argument.split(separator: " ").compactMap { Int($0) }
            switch (command, bar.tabs.first { $0.title == argument }) {
            case ("tap", let tab?): bar.select(tab.id)
            case ("close", let tab?): bar.close(tab.id)
            case ("reopen", _): bar.reopen()
            case ("move", _) where offsets.count == 2: bar.move(fromOffsets: [offsets[0]], toOffset: offsets[1])
            case ("background", _):
                bar.suspend()
                say("suspended")
            case ("foreground", _): bar.resume()
            case ("quit", _): break
            default: say("no such tab or command: \(line)")
            }
            if command == "quit" { break }
        }
        await bar.waitForPendingEdits()
        withExtendedLifetime(screen) {}
    }
}

/// The view: draws the bar whenever what it shows changes, as SwiftUI would.
@MainActor
final class Screen {
    let bar: TabBar
    private var drawn = ""
    private var reselections = 0

    init(bar: TabBar) {
        self.bar = bar
        draw()
    }

    private func draw() {
        let (text, reselection, error) = withObservationTracking {
            let tabs = bar.tabs.map { $0.isSelected ? "[\($0.title)]" : $0.title }.joined(separator: " | ")
            let route = bar.selectedTab?.route ?? "nothing"
            return (tabs + "  showing \(route)" + (bar.hasPendingEdits ? " (saving)" : ""), bar.reselection, bar.editError)
        } onChange: {
            Task { @MainActor in self.draw() }
        }
        if text != drawn { say(text) }
        drawn = text
        // Events, each said once: a re-tap, and an edit the store refused (taken back).
        if let reselection, reselection.count > reselections {
            reselections = reselection.count
            say("\(reselection.title) scrolled to the top")
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
