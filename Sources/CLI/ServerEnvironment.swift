import TabStoreKit

/// What a `postgresql://` store takes from the environment besides libpq's own variables:
/// how long a server may stay silent, and how long a command keeps trying while its
/// server is away (a restart, a failover), both in seconds.
enum ServerEnvironment {
    static let variables = [
        ("TABSTORE_SERVER_TIMEOUT", "On a server: seconds it may take to answer, beyond the busy timeout, before a command gives up (default 10)."),
        ("TABSTORE_FAILOVER_WINDOW", "On a server: seconds a command keeps reconnecting and trying again while its server is away, as while a standby is promoted (default 5; 0 tries once)."),
    ]

    /// `options` with the variables that are set applied.
    ///
    /// - Throws: a usage error naming a variable that is not a number of seconds from 0 to 3600.
    static func apply(to options: TabStore.Options, from environment: Environment, command: String) throws(CLIError) -> TabStore.Options {
        var options = options
        if let timeout = try seconds(variables[0].0, environment, command) { options.serverTimeout = timeout }
        if let window = try seconds(variables[1].0, environment, command) { options.failoverWindow = window }
        return options
    }

    private static func seconds(_ name: String, _ environment: Environment, _ command: String) throws(CLIError) -> Duration? {
        guard let text = environment.value(name) else { return nil }
        let isDecimal = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } && text.filter { $0 == "." }.count <= 1
        guard isDecimal, let value = Double(text), value <= 3600 else {
            throw .usage(UsageError(message: "\(name) must be a number of seconds from 0 to 3600, not \(ErrorMessage.Name(text, quote: "'", limit: 40))", command: command))
        }
        return .milliseconds(Int((value * 1000).rounded()))
    }
}
