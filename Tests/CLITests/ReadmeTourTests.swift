import Foundation
import TabStoreTestSupport
import Testing

/// The README's tour is real output: its first `console` block is run, command by
/// command, against a fresh database, and what each prints (stdout and stderr, as a
/// terminal shows them) must be what the README says, timestamps aside.
@Suite struct ReadmeTourTests {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    /// The lines of the `number`th ```console block (0: the first).
    static func tour(block number: Int = 0) throws -> [String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var start = -1
        for _ in 0...number {
            start = try #require(lines[(start + 1)...].firstIndex(of: "```console"))
        }
        let end = try #require(lines[(start + 1)...].firstIndex(of: "```"))
        return Array(lines[(start + 1)..<end])
    }

    @Test func theTourPrintsWhatTheReadmeSays() throws {
        let sandbox = Sandbox()
        try Self.run(try Self.tour(), in: sandbox) { database in
            let path = sandbox.folder + database
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            return (path, { $0.replacingOccurrences(of: path, with: database) })
        }
    }

    /// The server tour (the third block), then the sync tour (the fourth), in that order
    /// as a reader runs them: each `postgresql://` URL the README names is one fresh
    /// database of the test server for both tours, and the sync tour's two device files are
    /// files of the sandbox; each is shown as the README's.
    @Test(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason)))
    func theServerAndSyncToursPrintWhatTheReadmeSaysInOrder() throws {
        let server = try ServerSandbox()
        let serverTour = try Self.tour(block: 2)
        let syncTour = try Self.tour(block: 3)
        try #require(serverTour.first?.hasPrefix("$ export TABSTORE_DB=postgresql://") == true)
        // Every URL the tours' commands name, each a database of its own on the test server.
        var found: [(readmeURL: String, url: String, named: Regex<AnyRegexOutput>)] = []
        for line in serverTour + syncTour where line.hasPrefix("$ ") {
            for word in try Self.words(String(line.dropFirst(2))) {
                let value = word.hasPrefix("TABSTORE_DB=") ? String(word.dropFirst("TABSTORE_DB=".count)) : word
                guard value.hasPrefix("postgresql://"), !found.contains(where: { $0.readmeURL == value }) else { continue }
                let url = found.isEmpty ? server.url : try server.server.createDatabase()
                let name = String(url.split(separator: "/").last ?? "")
                found.append((value, url, try Regex("postgresql://[^ ]*/" + name + "\\b")))
            }
        }
        let databases = found
        let folder = server.sandbox.folder
        let files = ["phone.sqlite", "laptop.sqlite"]
        // What the README shows: a URL as typed (the sync tour), or as `info` names a server
        // (the server tour: scheme, user, host:port and database); the device files by name.
        let shownAsInReadme = { (text: String, asServer: Bool) -> String in
            let text = databases.reduce(text) { text, database in
                text.replacing(database.named, with: asServer
                    ? database.readmeURL.replacingOccurrences(of: "@db.example/", with: "@db.example:5432/") : database.readmeURL)
            }
            return files.reduce(text) { $0.replacingOccurrences(of: folder + "/" + $1, with: $1) }
        }
        let own = { (word: String) in
            databases.first(where: { $0.readmeURL == word })?.url ?? (files.contains(word) ? folder + "/" + word : nil)
        }
        for (tour, asServer) in [(serverTour, true), (syncTour, false)] {
            try Self.run(tour, in: server.sandbox, rewriting: { own($0) ?? $0 }) { database in
                (try #require(own(database), "the tour names \(database), which this test does not know"), { shownAsInReadme($0, asServer) })
            }
        }
    }

    /// Runs a tour's commands, `export TABSTORE_DB=...` giving the database (as `located`
    /// makes it, with how to show its output as the README does), and checks each command
    /// prints what the lines after it say. `rewriting` turns each word of a command into
    /// what this run uses.
    static func run(
        _ lines: [String], in sandbox: Sandbox, rewriting: (String) -> String = { $0 },
        located: (String) throws -> (database: String, shownAsInReadme: (String) -> String)
    ) throws {
        var database: (database: String, shownAsInReadme: (String) -> String)?
        var lastExit: Int32 = 0
        var expected: [String] = [], actual: [String] = []
        var index = 0
        while index < lines.count {
            let command = try #require(lines[index].hasPrefix("$ ") ? String(lines[index].dropFirst(2)) : nil, "not a command: \(lines[index])")
            index += 1
            var printed: [String] = []
            while index < lines.count, !lines[index].hasPrefix("$ ") {
                printed.append(lines[index])
                index += 1
            }
            expected.append("$ " + command)
            expected += printed.map(Self.masked)
            actual.append("$ " + command)
            let words = try Self.words(command)
            switch words.first {
            case "export":
                let assignment = try #require(words.dropFirst().first)
                database = try located(String(try #require(assignment.split(separator: "=", maxSplits: 1).last)))
            case "echo":
                #expect(words == ["echo", "$?"])
                actual.append(String(lastExit))
            case "tabstore":
                let (location, shown) = try #require(database)
                let output = sandbox.runWithoutDatabase(words.dropFirst().map(rewriting), environment: ["TABSTORE_DB": location])
                lastExit = output.code
                let text = shown(output.stdout + output.stderr)
                actual += text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { Self.masked(String($0)) }
            default:
                Issue.record("the tour runs \(command), which this test does not know")
            }
        }
        #expect(actual == expected)
    }

    /// ISO 8601 timestamps as `TIME`: they are when the README was written.
    static func masked(_ line: String) -> String {
        line.replacingOccurrences(of: #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z"#, with: "TIME", options: .regularExpression)
    }

    /// A command line split as the shell splits it (double quotes, single quotes, spaces).
    static func words(_ line: String) throws -> [String] {
        var words: [String] = [], current = "", quote: Character?, inWord = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        try #require(quote == nil, "an unclosed quote in \(line)")
        if inWord { words.append(current) }
        return words
    }
}
