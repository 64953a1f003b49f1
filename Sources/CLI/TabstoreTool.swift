#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `tabstore` process: what each executable's main runs.
public enum TabstoreTool {
    /// Runs the command line this process was given, prints what it printed and exits with
    /// its code. `servers` says how this executable serves a database on a PostgreSQL server.
    public static func main(servers: ServerStores) -> Never {
        reserveStandardDescriptors()
        ProcessOutput.ignoreBrokenPipes()
        let raw = RawArguments.fromProcess()
        // Read: no password needs to stay in the process table of the process that serves
        // a server (`tabstore` hands such a run over at once).
        if case let .opened(server) = servers { PasswordHiding.hidePasswordsInProcessArguments(using: server.withoutPassword) }
        var result = Runner.run(raw, environment: .process, servers: servers)
        if let companion = result.handOver {
            // Returns only when the companion could not be started.
            let error = Companion.replaceProcess(with: companion)
            result = Runner.failure(error, json: result.json, program: Program.spec)
        }
        if let watch = result.watch { watch.run(printingFirst: result) }
        if let sync = result.sync { sync.run(printingFirst: result) }
        ProcessOutput.finish(result, json: result.json)
    }
}
