import Foundation

// TabStoreBench: the comparisons of docs/Performance.md in one run, each against its peer measured in
// the same run (machines differ; ratios taken side by side are what count).

let usage = """
    USAGE: TabStoreBench [--quick] [--json] [--dir <folder>] [--only <group>] [--keep]

    Measures tabstore against raw SQLite, UserDefaults, an atomic JSON file and the
    sqlite3 shell, and its PostgreSQL backend against raw libpq on a throwaway server it
    starts itself; prints every figure with its ratio, target and whether it is met.
    Build everything first so the tabstore and TabStoreBenchHello processes can be timed:
      swift build -c release && swift run -c release TabStoreBench

    OPTIONS:
      --quick           Fewer rounds: a shorter run, noisier figures.
      --json            Print one JSON object instead of the table.
      --dir <folder>    Where the database files go (default /var/tmp). Use a disk,
                        not tmpfs: there fsync costs nothing.
      --only <group>    Run one group (for profiling): memory, select, peers,
                        processes, large, import, open, observe, app,
                        sync, postgres or fleet.
      --keep            Leave the database files behind, to inspect them.
      -h, --help        Show this help.
    """

/// The value after an option, or a usage error.
@MainActor func value(of option: String) -> String {
    guard let value = arguments.popFirst() else {
        FileHandle.standardError.write(Data("Missing value for '\(option)'\n\(usage)\n".utf8))
        exit(2)
    }
    return value
}

var quick = false
var json = false
var parent = "/var/tmp"
var only: String?
var keep = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick": quick = true
    case "--json": json = true
    case "--dir": parent = value(of: argument)
    case "--only": only = value(of: argument)
    case "--keep": keep = true
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(Data("Unknown option '\(argument)'\n\(usage)\n".utf8))
        exit(2)
    }
}

let size = BenchSize(quick: quick)
let start = monotonicNanoseconds()
let folder: ScratchFolder
do {
    folder = try ScratchFolder(parent: parent)
} catch {
    FileHandle.standardError.write(Data("TabStoreBench: \(error)\n".utf8))
    exit(1)
}
if folder.isTmpfs { progress("warning: \(folder.path) is on tmpfs; fsync costs nothing there") }

// Each group runs alone: one that fails adds a row saying why and the rest still run.
let groups: [(name: String, run: () throws -> [Row])] = [
    ("memory", { try SelectThroughput(size: size, folder: folder).inMemory() }),
    ("select", { try SelectThroughput(size: size, folder: folder).run() }),
    ("peers", { try Peers(size: size, folder: folder).run() }),
    ("processes", { try ProcessTimings(size: size, folder: folder).run() }),
    ("large", { try LargeSets(size: size, folder: folder).run() }),
    ("import", { try LargeSets(size: size, folder: folder).importing() }),
    ("open", { try LargeSets(size: size, folder: folder).openAndMigrate() }),
    ("observe", { try Observing(size: size, folder: folder).run() }),
    ("app", { try AppRows(size: size, folder: folder).run() }),
    ("sync", { try SyncRows(size: size, folder: folder).run() }),
    ("postgres", { PostgresGroup(size: size).run() }),
    ("fleet", { FleetGroup(size: size).run() }),
]
if let only, !groups.contains(where: { $0.name == only }) {
    FileHandle.standardError.write(Data("The value '\(only)' is invalid for '--only'\n\(usage)\n".utf8))
    exit(2)
}
var rows: [Row] = []
for group in groups where only == nil || group.name == only {
    do {
        rows += try group.run()
    } catch {
        rows.append(.missing(group.name, "the \(group.name) group", unit: .milliseconds, target: nil, because: "failed: \(error)"))
    }
}

let facts = RunFacts(
    quick: quick, folder: parent, folderIsTmpfs: folder.isTmpfs,
    seconds: Double(monotonicNanoseconds() - start) / 1e9
)
print(json ? Report.json(rows, facts: facts) : Report.table(rows, facts: facts))
if keep {
    progress("files kept in \(folder.path)")
} else {
    folder.remove()  // top-level objects are never deinitialized: remove explicitly
}
