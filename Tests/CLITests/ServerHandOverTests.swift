import Foundation
import Synchronization
import TabStoreKit
import TabStorePostgres
import TabStoreTestSupport
import Testing
@testable import TabStoreCLI

/// `tabstore` cannot load libpq (on Linux its release build is fully static), so a run on a
/// server URL becomes `tabstore-postgres`, with the same arguments, environment and standard
/// input, before anything is printed or read: the one beside `tabstore`'s real path, else the
/// first on PATH. Without one, the run says so and exits 3.
@Suite struct ServerHandOverTests {
    static let companion = "tabstore-postgres"

    /// One in-process run of `tabstore` that hands server URLs over.
    static func handingOver(_ arguments: [String], _ variables: [String: String] = [:]) -> RunResult {
        let environment = Environment.fixed(["HOME": "/nonexistent-home"].merging(variables) { $1 })
        return Runner.run(
            RawArguments(arguments: arguments, firstInvalidPosition: nil), environment: environment,
            servers: .handedOver(toCompanion: companion))
    }

    /// Arguments that pass the scanner for `spec`: a value for each argument it requires.
    static func minimalArguments(_ spec: CommandSpec) -> [String] {
        spec.arguments.filter { $0.arity == .required || $0.arity == .oneOrMore }.map { $0.kind == .index ? "1" : "x" }
    }

    @Test func onlyHelpAndCompletionScriptsOpenNoDatabase() {
        let names = Program.commands.map { $0.spec }.filter { !$0.opensDatabase }.map { $0.name }
        #expect(names == ["completions", "help", "__complete"])
    }

    @Test(arguments: ["postgresql://app@db.example/tabs", "postgres://db.example/tabs", "POSTGRESQL:tabs"])
    func everyCommandThatOpensADatabaseHandsAServerOverBeforeDoingAnything(url: String) {
        for command in Program.commands where command.spec.opensDatabase {
            let arguments = [command.spec.name] + Self.minimalArguments(command.spec)
            // Nothing printed, nothing to exit with: the companion does all of it.
            #expect(Self.handingOver(["--db", url] + arguments) == RunResult(handOver: Self.companion), "\(arguments)")
            #expect(Self.handingOver(arguments, ["TABSTORE_DB": url]) == RunResult(handOver: Self.companion), "\(arguments)")
            var json = RunResult(handOver: Self.companion)
            json.json = true
            #expect(Self.handingOver(arguments + ["--json", "--db", url]) == json, "\(arguments)")
        }
    }

    /// Asked of the context alone: running the commands here would write files.
    @Test(arguments: [["--db", "/nonexistent-folder/tabs.sqlite"], ["--db", "relative.sqlite"], ["--db", "postgresql"], []])
    func aFileIsNeverHandedOver(database: [String]) {
        let environment = Environment.fixed(["HOME": "/nonexistent-home"])
        for command in Program.commands {
            let context = CommandContext(
                program: Program.spec, json: false, databaseOption: database.last, environment: environment,
                command: command.spec.name, servers: .handedOver(toCompanion: Self.companion))
            let arguments = ParsedArguments(command: command.spec.name, values: [:], options: [:])
            #expect(context.companion(for: command.spec, arguments: arguments) == nil, "\(command.spec.name) \(database)")
        }
    }

    /// `sync`'s server is a database too: a server URL there hands the run over, with the
    /// device a file.
    @Test(arguments: ["postgresql://app@db.example/tabs", "postgres://db.example/tabs"])
    func aSyncWithAServerIsHandedOver(url: String) {
        #expect(Self.handingOver(["--db", "/nonexistent-folder/phone.sqlite", "sync", url]) == RunResult(handOver: Self.companion))
        #expect(Self.handingOver(["--db", "/nonexistent-folder/phone.sqlite", "sync", "/nonexistent-folder/server.sqlite"]).handOver == nil)
    }

    /// Help, a completion script and completing a word print what they print with a file,
    /// and a Tab key never starts the companion.
    @Test(arguments: [["help"], ["help", "select"], ["completions", "zsh"], ["__complete", "bash", "--", "tabstore", "sel"]])
    func commandsThatOpenNoDatabaseRunHereWhateverTheDatabase(arguments: [String]) {
        let onServer = Self.handingOver(arguments, ["TABSTORE_DB": "postgresql://db.example/tabs"])
        #expect(onServer == Self.handingOver(arguments, ["TABSTORE_DB": "/nonexistent-folder/tabs.sqlite"]))
        #expect(onServer.handOver == nil && onServer.exitCode == 0 && !onServer.standardOutput.isEmpty)
    }

    /// What this executable finds wrong before any database is opened, it says itself, as
    /// the companion would: the same code runs in both.
    @Test func mistakesFoundBeforeOpeningAreNotHandedOver() {
        let url = "postgresql://db.example/tabs"
        let cases: [(arguments: [String], variables: [String: String], firstLine: String)] = [
            (["select", "main"], ["TABSTORE_DB": url], "tabstore: error: Missing expected argument '<tab>' (see 'tabstore help select')"),
            (["--db", url, "list", "--bogus"], [:], "tabstore: error: Unknown option '--bogus'; if '--bogus' is a title or name, put '--' before it (see 'tabstore help list')"),
            (["--db", "", "list"], ["TABSTORE_DB": url], "tabstore: error: --db is empty; leave it out or give a path (see 'tabstore help list')"),
            (["list"], ["TABSTORE_DB": ""], "tabstore: error: TABSTORE_DB is set but empty; unset it or give a path (see 'tabstore help list')"),
        ]
        for (arguments, variables, firstLine) in cases {
            let result = Self.handingOver(arguments, variables)
            #expect(result.handOver == nil && result.exitCode == 2, "\(arguments)")
            #expect(result.standardError.split(separator: "\n").first.map(String.init) == firstLine, "\(arguments)")
        }
        #expect(Self.handingOver(["--db", url, "select", "--help"]).standardOutput.hasPrefix("OVERVIEW: Select a tab"))
    }

    /// The companion's own main opens the server in process, with the options each command asks for.
    @Test func anExecutableThatOpensServersNeverHandsOver() {
        let asked = Mutex<[String]>([])
        let created = Mutex(false)
        let open = { @Sendable (url: String, options: TabStore.Options) throws(TabStoreError) -> TabStore in
            asked.withLock { $0.append("\(url) creating: \(options.createsMissingDatabase)") }
            // A server database without tabstore's tables until a store that may create them opens it.
            guard options.createsMissingDatabase || created.withLock({ $0 }) else { throw TabStoreError(.databaseNotFound(path: url)) }
            created.withLock { $0 = true }
            return try TabStore.inMemory()
        }
        let servers = ServerStores.opened(by: ServerSupport(
            open: open, openOnceTablesExist: open, onStatusChange: { _, _ in }, withoutPassword: { $0 }
        ))
        let environment = Environment.fixed(["HOME": "/nonexistent-home"])
        let run = { (arguments: [String]) in
            Runner.run(RawArguments(arguments: arguments, firstInvalidPosition: nil), environment: environment, servers: servers)
        }
        let url = "postgres://db.example/tabs"
        #expect(run(["--db", url, "add", "main", "Home"]) == RunResult(standardOutput: "added 1 tab to main\n", savedChange: true))
        #expect(run(["--db", url, "list"]) == RunResult())
        // add looks for the database first, and creates it only once its edit is known to succeed.
        #expect(asked.withLock { $0 } == ["\(url) creating: false", "\(url) creating: true", "\(url) creating: false"])
    }

    /// The CLI's rule for a server URL is `TabStore.isPostgresURL`'s (which `tabstore` does not
    /// link), over strings built from the pieces where the two could part.
    @Test func theCLICallsTheSameLocationsServersAsTheLibrary() {
        let pieces = ["postgres", "POSTGRES", "PostgreSQL", "ql", "QL", "q", ":", "//", "/", "s", " ", "x", "é", "K", "İ", "ß", "db.sqlite"]
        var random = SplitMix64(seed: 0x5E2E_0C1A)
        var servers = 0
        for _ in 0..<20_000 {
            // Half start with (near) spellings of a scheme, so both answers are common.
            let starts = ["postgres:", "PostgreSQL:", "POSTGRES", "postgresql", "postgre", "Postgres:/"]
            let start = random.next() % 2 == 0 ? starts[Int(random.next() % UInt64(starts.count))] : ""
            let location = start + (0..<Int(random.next() % 5)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            #expect(DatabasePath.isServerURL(location) == TabStore.isPostgresURL(location), "\(location)")
            if TabStore.isPostgresURL(location) { servers += 1 }
        }
        // Both answers occur, so agreeing is not agreeing on one answer.
        #expect(servers > 1_000 && servers < 19_000, "\(servers)")
    }

    // MARK: the processes

    /// A folder holding a copy of `tabstore`, with or without the companion beside it.
    struct Installation {
        let sandbox = Sandbox()
        let folder: String
        var tabstore: String { folder + "/tabstore" }
        var companion: String { folder + "/tabstore-postgres" }

        init(withCompanion: Bool, folder name: String = "bin") throws {
            folder = sandbox.folder + "/" + name
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try sandbox.installExecutable(TabstoreBinary.path, at: tabstore)
            if withCompanion { try sandbox.installExecutable(TabstoreBinary.companionPath, at: companion) }
        }

        /// A folder of the sandbox's, created, that holds nothing.
        func emptyFolder(_ name: String) throws -> String {
            let path = sandbox.folder + "/" + name
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }
    }

    /// With a libpq that cannot be loaded, the companion's own message proves it ran.
    static let noLibpq = ["TABSTORE_LIBPQ": "/nonexistent/libpq.so.5"]
    static let companionRan = Output.failure(3, """
        tabstore: error: a postgresql:// database needs libpq, which could not be loaded (/nonexistent/libpq.so.5: cannot open shared object file: No such file or directory); install it (apt-get install libpq5) or name it in TABSTORE_LIBPQ

        """)

    @Test func withoutItsCompanionTabstoreSaysWhatIsMissingAndExits3() throws {
        let installed = try Installation(withCompanion: false)
        let path = ["PATH": try installed.emptyFolder("empty")]
        let missing = "a postgresql:// database needs tabstore-postgres, which is neither beside \(installed.tabstore) nor on PATH; install it next to tabstore"
        let sandbox = installed.sandbox
        for arguments in [["list"], ["select", "main", "1"], ["info"], ["watch"]] {
            #expect(sandbox.runProcess(installed.tabstore, ["--db", "postgresql://app@db.example/tabs"] + arguments, environment: path)
                == .failure(3, "tabstore: error: \(missing)\n"), "\(arguments)")
        }
        #expect(sandbox.runProcess(installed.tabstore, ["--json", "list"], environment: path.merging(["TABSTORE_DB": "postgres://db.example/tabs"]) { $1 })
            == .failure(3, #"{"error":{"code":3,"message":"\#(missing)"}}"# + "\n"))
        // Standard input is left for the companion: the document is not read first.
        #expect(sandbox.runProcess(installed.tabstore, ["--db", "postgresql://db.example/tabs", "import", "-"], stdin: "not JSON", environment: path)
            == .failure(3, "tabstore: error: \(missing)\n"))
        // Help and files need no companion.
        #expect(sandbox.runProcess(installed.tabstore, ["help", "list"], environment: path.merging(["TABSTORE_DB": "postgres://db.example/tabs"]) { $1 })
            == sandbox.runProcess(installed.tabstore, ["help", "list"], environment: path))
        #expect(sandbox.runProcess(installed.tabstore, ["--db", sandbox.database, "add", "main", "Home"], environment: path) == .ok("added 1 tab to main\n"))
    }

    @Test func theCompanionBesideTheBinaryServesIt() throws {
        let installed = try Installation(withCompanion: true)
        let environment = Self.noLibpq.merging(["PATH": try installed.emptyFolder("empty")]) { $1 }
        #expect(installed.sandbox.runProcess(installed.tabstore, ["--db", "postgresql://db.example/tabs", "list"], environment: environment)
            == Self.companionRan)
    }

    /// A symlink to `tabstore` (`~/bin/tabstore -> /opt/tabstore/tabstore`) finds the companion
    /// beside the real file, not beside the link.
    @Test func aSymlinkFindsTheCompanionBesideTheRealBinary() throws {
        let installed = try Installation(withCompanion: true)
        let links = try installed.emptyFolder("links")
        try FileManager.default.createSymbolicLink(atPath: links + "/tabstore", withDestinationPath: installed.tabstore)
        let environment = Self.noLibpq.merging(["PATH": links]) { $1 }
        #expect(installed.sandbox.runProcess(links + "/tabstore", ["--db", "postgresql://db.example/tabs", "list"], environment: environment)
            == Self.companionRan)
        // Run by name through PATH, as a shell does.
        #expect(installed.sandbox.runProcess("/bin/sh", ["-c", "tabstore --db postgresql://db.example/tabs list"], environment: environment)
            == Self.companionRan)
    }

    @Test func aCompanionOnlyOnPathServesIt() throws {
        let installed = try Installation(withCompanion: false)
        let elsewhere = try Installation(withCompanion: true, folder: "elsewhere")
        let environment = Self.noLibpq.merging(["PATH": "\(try installed.emptyFolder("empty")):\(elsewhere.folder):/usr/bin:/bin"]) { $1 }
        #expect(installed.sandbox.runProcess(installed.tabstore, ["--db", "postgresql://db.example/tabs", "list"], environment: environment)
            == Self.companionRan)
    }

    @Test func aCompanionThatCannotRunIsNamed() throws {
        let installed = try Installation(withCompanion: false)
        // Executable, but not a program: exec refuses it. Written by a process of its own
        // (see `installExecutable`).
        #expect(installed.sandbox.runProcess("/bin/sh", ["-c", #"printf '\0\0\0\0' >"$0" && chmod 755 "$0""#, installed.companion]) == .ok(""))
        #expect(installed.sandbox.runProcess(installed.tabstore, ["--db", "postgresql://db.example/tabs", "list"], environment: ["PATH": try installed.emptyFolder("empty")])
            == .failure(3, "tabstore: error: cannot run \(installed.companion) for a postgresql:// database: Exec format error\n"))
    }
}

/// On a real server, through `tabstore`: the companion gets standard input and the process id.
@Suite(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
struct ServerHandOverProcessTests {
    @Test func standardInputReachesTheCompanion() throws {
        let server = try ServerSandbox()
        let document = #"{"format":"tabstore","version":2,"sets":[{"name":"main","selectedIndex":1,"tabs":["Home","Reviews"]}]}"#
        #expect(server.run(["import", "-"], stdin: document) == .ok("imported 1 set\n"))
        #expect(server.run("list", "main") == .ok("  0  Home\n* 1  Reviews\n"))
    }
}
