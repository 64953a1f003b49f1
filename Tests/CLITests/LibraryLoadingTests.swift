import Foundation
import TabStoreTestSupport
import Testing

/// libpq is loaded with dlopen only for a postgresql:// URL: the binary does not name it,
/// a file database never opens it, and a machine without it still runs tabstore on files.
/// (dlopen needs the binary to use the system's dynamic glibc: it is not fully static.)
@Suite struct LibraryLoadingTests {
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

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/readelf"), "readelf (binutils) is not installed"))
    func theBinaryUsesTheSystemGlibcAndDoesNotNameLibpq() throws {
        let needed = try #require(Self.neededLibraries(of: TabstoreBinary.path), "readelf cannot read \(TabstoreBinary.path)")
        // A fully static binary names nothing: it could not safely dlopen libpq.so.5.
        #expect(needed.contains("libc.so.6"), "not linked against the system glibc: \(needed)")
        #expect(needed.filter { $0.contains("libpq") } == [])
    }

    /// A file session: each command, its exact output, and the database it leaves.
    static let session: [(arguments: [String], output: Output)] = [
        (["add", "main", "Home", "Reviews"], .ok("added 2 tabs to main\n")),
        (["select", "main", "1"], .ok("selected 1: Reviews\n")),
        (["list", "main"], .ok("  0  Home\n* 1  Reviews\n")),
    ]

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "strace is not installed (.ci/run installs it)"))
    func aFileDatabaseNeverOpensLibpq() {
        let sandbox = Sandbox()
        let trace = sandbox.folder + "/trace"
        for (arguments, expected) in Self.session {
            // Every file the command opens, from every thread, written to `trace`.
            let output = sandbox.runProcess(
                "/usr/bin/strace", ["-f", "-qq", "-e", "trace=open,openat", "-o", trace, TabstoreBinary.path, "--db", sandbox.database] + arguments)
            let opened = ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            #expect(output == expected, "\(arguments)")
            // The trace is real: it shows the database being opened.
            #expect(opened.contains { $0.contains("\"\(sandbox.database)\"") }, "strace saw no open of the database: \(opened)")
            #expect(opened.filter { $0.contains("libpq") } == [], "\(arguments)")
        }
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
            environment: ["TABSTORE": TabstoreBinary.path, "DATABASE": sandbox.database, "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        #expect(output == .ok("hidden \(hidden.count)\n" + Self.session.map { $0.output.stdout }.joined()))
    }
}
