import TabStoreKit

/// One `tabstore` subcommand: its declaration and what it does, in one file per command.
protocol TabstoreCommand: Sendable {
    static var spec: CommandSpec { get }
    /// Does the work with (at most) one Store call: what to print and how to exit.
    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult
}

/// A command whose whole result is text on standard output, with no change to report:
/// the commands that only read, and `backup` (its copy is another file).
protocol TextCommand: TabstoreCommand {
    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> String
}

extension TextCommand {
    static func result(_ arguments: ParsedArguments, in context: CommandContext) throws(CLIError) -> RunResult {
        RunResult(standardOutput: try run(arguments, in: context))
    }
}

/// What a command may use besides its arguments.
struct CommandContext {
    let program: ProgramSpec
    /// `--json`: print JSON instead of text.
    let json: Bool
    /// `--db`, when given.
    let databaseOption: String?
    let environment: Environment
    let command: String
    let servers: ServerStores

    /// Opens the database for a command that does not create one: a missing database
    /// reads as an empty one, and no file or folder is created.
    func openStore() throws(CLIError) -> TabStore {
        do {
            return try openExistingStore()
        } catch .store(.databaseNotFound) {
            return try storeCall { () throws(TabStoreError) in try TabStore.inMemory() }
        }
    }

    /// Opens the database, or fails with `.databaseNotFound` when there is none.
    func openExistingStore() throws(CLIError) -> TabStore {
        let location = try resolvedPath()
        let options = try serverOptions(Self.runOptions(createsMissingDatabase: false), for: location)
        return try open(location, options: options)
    }

    /// Opens the database, creating it and its folders when missing: for `add`, `import` and `sync`.
    /// Where there is none yet, `edit` is first tried on an empty database in memory: an
    /// edit that would be refused creates no file and no folder (a failed command changes
    /// nothing, a mistyped --db included).
    func openOrCreateStore(rehearsing edit: (TabStore) throws(TabStoreError) -> Void) throws(CLIError) -> TabStore {
        do {
            return try openExistingStore()
        } catch .store(.databaseNotFound) {
            try storeCall { () throws(TabStoreError) in try edit(try TabStore.inMemory()) }
        }
        // The library makes the missing folders above a new file.
        let location = try resolvedPath()
        let options = try serverOptions(Self.runOptions(createsMissingDatabase: true), for: location)
        return try open(location, options: options)
    }

    /// The options of a run's store: one connection to a file, as a run makes one call
    /// (or only reads, as `watch` does): a second, for reads, would cost its opening.
    private static func runOptions(createsMissingDatabase: Bool) -> TabStore.Options {
        var options = TabStore.Options(createsMissingDatabase: createsMissingDatabase)
        options.concurrentReads = false
        return options
    }

    private func open(_ location: String, options: TabStore.Options) throws(CLIError) -> TabStore {
        try StoreOpener(location: location, options: options, servers: servers, command: command)()
    }

    /// The companion to hand this run to: the command opens a database, the database is on
    /// a server, and this executable hands those over. A location that cannot be resolved
    /// stays here, to be reported as this executable would.
    func companion(for spec: CommandSpec, arguments: ParsedArguments) -> String? {
        guard spec.opensDatabase, case let .handedOver(companion) = servers else { return nil }
        let second = spec.databaseArgument.flatMap { try? arguments.text($0) }
        let locations = [try? resolvedPath(), second].compactMap { $0 }
        return locations.contains(where: DatabasePath.isServerURL) ? companion : nil
    }

    /// A database as messages name it: a file by its absolute path, a server by its URL
    /// without the password.
    func shownLocation(_ location: String) -> String {
        guard DatabasePath.isServerURL(location) else { return DatabasePath.absolute(location) }
        if case let .opened(server) = servers { return server.withoutPassword(location) }
        return location
    }

    /// What opens a second database, `location` as a command line gives it (`sync`'s
    /// server), creating it when missing if `creating`: at once, or later (a server away
    /// for now). Its options are read from the environment here, once.
    func storeOpener(_ location: String, creating: Bool) throws(CLIError) -> StoreOpener {
        StoreOpener(
            location: location, options: try serverOptions(Self.runOptions(createsMissingDatabase: creating), for: location),
            servers: servers, command: command
        )
    }

    /// `options` with the server settings of the environment, for a `postgresql://` URL.
    func serverOptions(_ options: TabStore.Options, for location: String) throws(CLIError) -> TabStore.Options {
        guard DatabasePath.isServerURL(location) else { return options }
        return try ServerEnvironment.apply(to: options, from: environment, command: command)
    }

    func resolvedPath() throws(CLIError) -> String {
        try DatabasePath.resolve(option: databaseOption, environment: environment, command: command)
    }
}

/// Opens a database: a file path, or a `postgresql://` / `postgres://` URL for a server.
struct StoreOpener: Sendable {
    let location: String
    let options: TabStore.Options
    let servers: ServerStores
    let command: String

    func callAsFunction() throws(CLIError) -> TabStore {
        try requireServed()
        return try storeCall { () throws(TabStoreError) in try open(creating: options.createsMissingDatabase) }
    }

    /// Refuses a server URL this executable does not serve. The runner hands such a run
    /// over before the command starts, unless the command is declared as opening no database.
    func requireServed() throws(CLIError) {
        if DatabasePath.isServerURL(location), case let .handedOver(companion) = servers {
            throw .companionUnavailable("'\(command)' opens no server database here; \(companion) does")
        }
    }

    /// Opens the database, made when missing only if `creating`; after `requireServed()`.
    func open(creating: Bool) throws(TabStoreError) -> TabStore {
        var options = options
        options.createsMissingDatabase = creating
        if DatabasePath.isServerURL(location), case let .opened(server) = servers {
            return try server.open(location, options)
        }
        return try TabStore(path: location, options: options)
    }
}

// Declarations several commands share, so that they read the same in every help text.
extension ArgumentSpec {
    static func set(_ help: String = "The name of the tab set.") -> ArgumentSpec {
        ArgumentSpec(name: "set", kind: .name, help: help)
    }

    static let tab = ArgumentSpec(
        name: "tab", kind: .tab,
        help: "An index (0-based; negative counts from the end, so -1 is the last tab) or an exact title."
    )
}

extension OptionSpec {
    static let title = OptionSpec(
        name: "title", kind: .titleArgument,
        help: "Give a <tab> as a title even when it is made of digits ('--title 1' is the tab titled \"1\"). Stands where the <tab> goes.",
        isInUsage: false
    )

    static let index = OptionSpec(
        name: "index", kind: .indexArgument,
        help: "Give a <tab> as an index even when a tab has it as its title ('--index 1' is the second tab). Stands where the <tab> goes.",
        isInUsage: false
    )

    static let id = OptionSpec(
        name: "id", kind: .idArgument,
        help: "Give a <tab> by its id, the UUID that 'list <set> --json' shows; it never changes. Stands where the <tab> goes.",
        isInUsage: false
    )

    /// For commands that write a file: an existing one is replaced only when asked.
    static let force = OptionSpec(name: "force", kind: .flag, help: "Replace FILE if it exists as a regular file.")

    /// Optimistic concurrency for every command that changes a set. Left out of usage
    /// lines, like `--title`: it guards a command rather than saying what it does.
    static let ifRevision = OptionSpec(
        name: "if-revision", kind: .integer(valueName: "revision", minimum: 0),
        help: "Change nothing and fail (exit 1) unless the set is still at this revision (see 'list <set> --json' or 'history'). For a missing set, 'add' counts the revision its name was left at: 0 for a name never used, else where the set that last had it was removed or renamed away.",
        isInUsage: false
    )
}

extension ParsedArguments {
    /// `--if-revision`. Revisions start at 0, so the scanner refuses a negative one as a
    /// usage error rather than letting it become a refusal that could never be avoided.
    var ifRevision: Int? { integerOption(OptionSpec.ifRevision.name) }
}

/// `1 tab`, `3 tabs`.
func counted(_ count: Int, _ singular: String, _ plural: String) -> String {
    "\(count) \(count == 1 ? singular : plural)"
}
