import Foundation
import Testing

/// The README's tour is real output: its first `console` block is run, command by
/// command, against a fresh database, and what each prints (stdout and stderr, as a
/// terminal shows them) must be what the README says, timestamps aside.
@Suite struct ReadmeTourTests {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    /// The lines of the first ```console block.
    static func tour() throws -> [String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "```console"))
        let end = try #require(lines[(start + 1)...].firstIndex(of: "```"))
        return Array(lines[(start + 1)..<end])
    }

    @Test func theTourPrintsWhatTheReadmeSays() throws {
        let sandbox = Sandbox()
        let lines = try Self.tour()
        var database: String?
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
                database = String(try #require(assignment.split(separator: "=", maxSplits: 1).last))
                try FileManager.default.createDirectory(atPath: sandbox.folder + (database! as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            case "echo":
                #expect(words == ["echo", "$?"])
                actual.append(String(lastExit))
            case "tabstore":
                let path = sandbox.folder + (try #require(database))
                let output = sandbox.runWithoutDatabase(Array(words.dropFirst()), environment: ["TABSTORE_DB": path])
                lastExit = output.code
                let text = (output.stdout + output.stderr).replacingOccurrences(of: path, with: database!)
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
