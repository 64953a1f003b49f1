import Foundation
import Testing
import TabStoreTestSupport
@testable import TabStoreCLI

/// A deterministic fuzz of the argument scanner and the commands behind it,
/// run in process. Every invocation ends in success or a documented error: exit 0 to 3,
/// nothing on stdout when it fails, and an error that starts as documented.
@Suite struct ArgumentFuzzTests {
    /// Words an invocation is made of. No `watch` (it never ends), no `-` (stdin) and
    /// no second `--db` (it would create databases wherever the tests run).
    static let words = [
        "add", "select", "list", "restore", "remove", "move", "rename", "reopen", "rename-set",
        "remove-set", "export", "import", "info", "help", "show", "history", "bogus",
        "--json", "--at", "--title", "--replace", "--if-revision", "--width", "--limit", "-h", "--help",
        "--version", "--", "--at=1", "--json=1", "-x", "--db=",
        "main", "other", "Home", "1", "0", "-1", "3", "-7", "99999999999999999999", "1.5", "",
        "a\nb", "홈", "😀", "'; DROP TABLE tab; --", "%s", "=",
    ]

    @Test func anyInvocationEndsInSuccessOrADocumentedError() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "1", "Reviews")
        var random = SplitMix64(seed: 0xF022_A265)
        var counts: [Int32: Int] = [:]
        var problems: [String] = []
        for _ in 0..<10_000 {
            var arguments = (0..<Int(random.next() % 6)).map { _ in Self.words[Int(random.next() % UInt64(Self.words.count))] }
            // The database is always the sandbox's, wherever --db lands.
            arguments.insert(contentsOf: ["--db", sandbox.database], at: Int(random.next() % UInt64(arguments.count + 1)))
            // After `--`, `--db` is a title: such runs use the default database under HOME.
            let environment = Environment.fixed(["HOME": sandbox.folder + "/home"])
            let result = Runner.run(
                RawArguments(arguments: arguments, firstInvalidPosition: nil), environment: environment,
                servers: .handedOver(toCompanion: "tabstore-postgres"))
            counts[result.exitCode, default: 0] += 1
            if let problem = Self.problem(with: result) { problems.append("\(arguments): \(problem)") }
        }
        #expect(problems.isEmpty, "\(problems.count) problems, first: \(problems.prefix(3))")
        // Every outcome is exercised, so the fuzz cannot pass by doing nothing.
        #expect([0, 1, 2].allSatisfy { counts[$0, default: 0] > 200 }, "\(counts)")
    }

    /// An integer names an index whatever its size: in `select`'s tab, `move`'s
    /// destination and `add --at`, one out of range (beyond `Int` too) is refused with
    /// exit 1, naming it, and nothing written; none is a usage error.
    @Test func anIntegerOfAnySizeIsAnIndexInEveryPositionThatTakesOne() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Menu", "Reviews")
        let before = sandbox.list("main")
        var random = SplitMix64(seed: 0x1DE7_0F5E)
        var problems: [String] = []
        func run(_ arguments: [String]) -> RunResult {
            Runner.run(RawArguments(arguments: ["--db", sandbox.database] + arguments, firstInvalidPosition: nil),
                       environment: .fixed(["HOME": sandbox.folder + "/home"]), servers: .handedOver(toCompanion: "tabstore-postgres"))
        }
        for _ in 0..<300 {
            let digits = (0...Int(random.next() % 30)).map { _ in String(random.next() % 10) }.joined()
            let text = (random.next() % 2 == 0 ? "-" : "") + digits
            // As the store names it: the value when it fits `Int`, else the digits as typed.
            let named = Int(text).map(String.init) ?? text
            let value = Int(text)
            let cases: [(arguments: [String], inRange: Bool, refusal: String)] = [
                (["select", "main", "--", text], value.map { (-3...2).contains($0) } ?? false,
                 "index \(named) is out of range for set \"main\" (valid: 0...2 or -3...-1)"),
                (["move", "main", "Home", "--", text], value.map { (-3...2).contains($0) } ?? false,
                 "index \(named) is out of range for set \"main\" (valid: 0...2 or -3...-1)"),
                (["add", "main", "New", "--at=\(text)"], value.map { (-4...3).contains($0) } ?? false,
                 "insertion index \(named) is out of range for set \"main\" (valid: 0...3 or -4...-1)"),
            ]
            for (arguments, inRange, refusal) in cases where !inRange {
                let result = run(arguments)
                if result.exitCode != 1 || result.standardError != "tabstore: error: \(refusal)\n" {
                    problems.append("\(arguments): exit \(result.exitCode), \(result.standardError)")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems, first: \(problems.prefix(3))")
        #expect(sandbox.list("main") == before)
    }

    private static func problem(with result: RunResult) -> String? {
        switch result.exitCode {
        case 0:
            return result.standardError.isEmpty ? nil : "stderr on success: \(result.standardError)"
        case 1, 2, 3:
            guard result.standardOutput.isEmpty else { return "stdout on failure: \(result.standardOutput)" }
            let lines = result.standardError.split(separator: "\n", omittingEmptySubsequences: false)
            let json = result.standardError.hasPrefix(#"{"error":{"code":\#(result.exitCode),"message":"#)
            guard json || result.standardError.hasPrefix("tabstore: error: ") else { return "stderr: \(result.standardError)" }
            // Every error is one line, a usage error's too.
            return lines.count == 2 ? nil : "\(lines.count - 1) lines: \(result.standardError)"
        default:
            return "exit \(result.exitCode): \(result.standardError)"
        }
    }
}
