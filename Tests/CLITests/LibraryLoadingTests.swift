import Foundation
import TabStoreTestSupport
import Testing

/// libpq is loaded with dlopen, only for a postgresql:// URL, and only by `tabstore-postgres`:
/// `tabstore` holds no PostgreSQL code at all (its release build is fully static, so it
/// could not load libpq safely) and hands server URLs over; the companion does not name
/// libpq either; a file database never opens it; a machine without it runs tabstore on files.
@Suite struct LibraryLoadingTests {
    static let hasBinutils = FileManager.default.isExecutableFile(atPath: "/usr/bin/readelf")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/nm")
    static let hasStrace = FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")

    /// The shared libraries the binary names (DT_NEEDED), as `readelf -d` prints them.
    static func neededLibraries(of binary: String) -> [String]? {
        let sandbox = Sandbox()
        let output = sandbox.runProcess("/usr/bin/readelf", ["-d", "-W", binary])
        guard output.code == 0 else { return nil }
        // "  0x0000000000000001 (NEEDED)  Shared library: [libc.so.6]"
        return output.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            guard let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    @Test(.enabled(if: hasBinutils, "readelf and nm (binutils) are not installed"))
    func tabstoreHoldsNoPostgresCode() throws {
        let symbols = Sandbox().runProcess("/usr/bin/nm", [TabstoreBinary.path])
        #expect(symbols.code == 0 && symbols.stdout.contains("TabStoreCLI"), "nm cannot read \(TabstoreBinary.path)")
        // Swift symbols carry their module's name; the C loader's functions are tabstore_pq_*.
        #expect(symbols.stdout.split(separator: "\n").filter { $0.contains("TabStorePostgres") || $0.contains("tabstore_pq") } == [])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: TabstoreBinary.path))
        #expect(bytes.range(of: Data("libpq.so".utf8)) == nil)
        #expect(Self.neededLibraries(of: TabstoreBinary.path)?.filter { $0.contains("libpq") } == [])
    }

    /// A fully static binary has no program interpreter and names no library: no dynamic
    /// loader runs at its start (the debug build is dynamic, like every debug build).
    @Test(
        .enabled(if: hasBinutils, "readelf (binutils) is not installed"),
        .enabled(if: TabstoreBinary.isReleaseBuild, "the tabstore under test is a debug build, which links dynamically; set TABSTORE_BINARY to a release build's, as .ci/run does")
    )
    func theReleaseTabstoreIsFullyStatic() throws {
        #expect(Self.neededLibraries(of: TabstoreBinary.path) == [])
        let headers = Sandbox().runProcess("/usr/bin/readelf", ["-l", "-W", TabstoreBinary.path])
        #expect(headers.code == 0 && headers.stdout.contains("LOAD"))
        #expect(!headers.stdout.contains("interpreter"), "\(headers.stdout)")
    }

    @Test(.enabled(if: hasBinutils, "readelf (binutils) is not installed"))
    func theCompanionUsesTheSystemGlibcAndDoesNotNameLibpq() throws {
        let needed = try #require(Self.neededLibraries(of: TabstoreBinary.companionPath), "readelf cannot read \(TabstoreBinary.companionPath)")
        // dlopen of libpq.so.5 needs the process to run on the system's dynamic glibc.
        #expect(needed.contains("libc.so.6"), "not linked against the system glibc: \(needed)")
        #expect(needed.filter { $0.contains("libpq") } == [])
    }

    /// A file session: each command, its exact output, and the database it leaves.
    static let session: [(arguments: [String], output: Output)] = [
        (["add", "main", "Home", "Reviews"], .ok("added 2 tabs to main\n")),
        (["select", "main", "1"], .ok("selected 1: Reviews\n")),
        (["list", "main"], .ok("  0  Home\n* 1  Reviews\n")),
    ]

    /// The programs started and the files opened by a traced run, from every process and thread.
    static func traced(
        _ sandbox: Sandbox, _ binary: String, _ arguments: [String], environment: [String: String] = [:]
    ) -> (output: Output, lines: [String]) {
        let trace = sandbox.folder + "/trace"
        let output = sandbox.runProcess(
            "/usr/bin/strace", ["-f", "-qq", "-e", "trace=execve,open,openat", "-o", trace, binary] + arguments, environment: environment
        )
        let lines = ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        return (output, lines)
    }

    @Test(.enabled(if: hasStrace, "strace is not installed (.ci/run installs it)"))
    func aFileDatabaseNeverOpensLibpqNorStartsTheCompanion() {
        for binary in [TabstoreBinary.path, TabstoreBinary.companionPath] {
            let sandbox = Sandbox()
            for (arguments, expected) in Self.session {
                let (output, lines) = Self.traced(sandbox, binary, ["--db", sandbox.database] + arguments)
                #expect(output == expected, "\(binary) \(arguments)")
                // The trace is real: it shows the database being opened.
                #expect(lines.contains { $0.contains("open") && $0.contains("\"\(sandbox.database)\"") }, "strace saw no open of the database: \(lines)")
                #expect(lines.filter { $0.contains("libpq") } == [], "\(binary) \(arguments)")
                #expect(lines.filter { $0.contains("execve(") }.count == 1, "\(binary) \(arguments): \(lines.filter { $0.contains("execve(") })")
            }
        }
    }

    /// Through `tabstore`: one process id that starts as tabstore, becomes the companion,
    /// and only then loads libpq (and tries to connect: nothing listens on the port).
    @Test(.enabled(if: hasStrace && !installedLibpqFiles().isEmpty, "needs strace and libpq5 (.ci/run installs both)"))
    func aServerURLLoadsLibpqOnlyInTheCompanion() throws {
        let sandbox = Sandbox()
        let port = try ClosedPort()
        let url = "postgresql://app@127.0.0.1:\(port.number)/tabs"
        // Tried once: nothing will ever listen there.
        let (output, lines) = Self.traced(sandbox, TabstoreBinary.path, ["--db", url, "list"], environment: ["TABSTORE_FAILOVER_WINDOW": "0"])
        #expect(output == .failure(3, """
            tabstore: error: cannot connect to \(url): connection to server at "127.0.0.1", port \(port.number) failed: Connection refused

            """))
        let started = lines.enumerated().filter { $0.element.contains("execve(") && $0.element.contains("= 0") }
        #expect(started.map { $0.element.split(separator: " ").first ?? "" }.count == 2)
        // Beside tabstore's real path: symlinks (.build/release is one) resolved.
        let companion = URL(fileURLWithPath: TabstoreBinary.companionPath).resolvingSymlinksInPath().path
        #expect(started.map { $0.element.contains("\"\(companion)\"") } == [false, true], "\(started)")
        // One process: the companion replaced tabstore (same pid in strace's first column).
        #expect(Set(started.map { $0.element.split(separator: " ").first ?? "" }).count == 1, "\(started)")
        let libpq = lines.enumerated().filter { $0.element.contains("libpq.so") && !$0.element.contains("ENOENT") }
        #expect(!libpq.isEmpty && libpq.allSatisfy { $0.offset > started[1].offset }, "\(lines)")
    }

    /// Every libpq file the dynamic loader's cache names (`ldconfig -p`), resolved.
    static func installedLibpqFiles() -> [String] {
        let output = Sandbox().runProcess("/sbin/ldconfig", ["-p"])
        let paths = output.stdout.split(separator: "\n").filter { $0.contains("libpq.so") }.compactMap { line in
            line.range(of: " => ").map { String(line[$0.upperBound...]) }
        }
        return Array(Set(paths.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path })).sorted()
    }

    @Test(.enabled(if: TemporaryMount.isAllowed, "needs permission to mount (root in CI)"))
    func aMachineWithoutLibpqRunsTabstoreOnFiles() {
        for binary in [TabstoreBinary.path, TabstoreBinary.companionPath] {
            runSessionWithoutLibpq(binary)
        }
    }

    private func runSessionWithoutLibpq(_ binary: String) {
        let sandbox = Sandbox()
        let hidden = Self.installedLibpqFiles()
        // In a private mount namespace, /dev/null is bind-mounted over each libpq file (it is
        // then empty to every reader), the script checks that it is, then runs the session.
        var script = "set -e\n"
        for (index, _) in hidden.enumerated() {
            script += "mount --bind /dev/null \"$\(index + 1)\"; test ! -s \"$\(index + 1)\"\n"
        }
        script += "echo \"hidden $#\"\n"
        for (arguments, _) in Self.session {
            script += "\"$TABSTORE\" --db \"$DATABASE\" " + arguments.map { "'\($0)'" }.joined(separator: " ") + "\n"
        }
        let output = sandbox.runProcess(
            "/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, "sh"] + hidden,
            environment: ["TABSTORE": binary, "DATABASE": sandbox.database, "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        #expect(output == .ok("hidden \(hidden.count)\n" + Self.session.map { $0.output.stdout }.joined()), "\(binary)")
    }
}
