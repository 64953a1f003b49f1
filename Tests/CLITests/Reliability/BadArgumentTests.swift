import Foundation
import Testing

/// Malformed invocations. Each exits with its documented code, says what was
/// wrong in one first line, and leaves the database exactly as it was.
@Suite struct BadArgumentTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let code: Int32
        let message: String
        init(_ arguments: [String], _ code: Int32, _ message: String) {
            (self.arguments, self.code, self.message) = (arguments, code, message)
        }
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let hugeTitle = String(repeating: "가", count: 100_000 / 3)
    static let longTitle = String(repeating: "a", count: 257)

    static let cases: [Case] = [
        // Unknown commands and options.
        Case(["selcet", "main", "0"], 2, "Unknown subcommand 'selcet'; did you mean 'select'?"),
        Case([""], 2, "Unknown subcommand ''"),
        Case(["SELECT", "main", "0"], 2, "Unknown subcommand 'SELECT'; did you mean 'select'?"),
        Case(["select", "main", "0", "--force"], 2, "Unknown option '--force'"),
        Case(["list", "-x"], 2, "Unknown option '-x'; if '-x' is a title or name, put '--' before it"),
        Case(["add", "main", "x", "--at"], 2, "Missing value for '--at <index>'"),
        Case(["add", "main", "x", "--at", "one"], 2, "The value 'one' is invalid for '--at <index>': it is not an integer"),
        Case(["add", "main", "x", "--at", "1.5"], 2, "The value '1.5' is invalid for '--at <index>': it is not an integer"),
        Case(["list", "--db"], 2, "Missing value for '--db <path>'"),
        Case(["select", "main", "--title"], 2, "Missing value for '--title <title>'"),
        Case(["restore", "main", "--json=yes"], 2, "Option '--json' takes no value"),
        // Missing and extra arguments.
        Case([], 0, ""),
        Case(["select"], 2, "Missing expected argument '<set>'"),
        Case(["select", "main"], 2, "Missing expected argument '<tab>'"),
        Case(["select", "main", "0", "1"], 2, "Unexpected argument '1'"),
        Case(["restore"], 2, "Missing expected argument '<set>'"),
        Case(["restore", "main", "extra"], 2, "Unexpected argument 'extra'"),
        Case(["move", "main", "0"], 2, "Missing expected argument '<to>'"),
        Case(["remove", "main"], 2, "Missing expected argument '<tab>'"),
        Case(["rename", "main", "0"], 2, "Missing expected argument '<new-title>'"),
        Case(["rename-set", "main"], 2, "Missing expected argument '<new-name>'"),
        Case(["import"], 2, "Missing expected argument '<file>'"),
        Case(["info", "extra"], 2, "Unexpected argument 'extra'"),
        // Indices out of range, non-numeric and huge.
        Case(["select", "main", "3"], 1, #"index 3 is out of range for set "main" (valid: 0...2 or -3...-1)"#),
        Case(["select", "main", "-4"], 1, #"index -4 is out of range for set "main" (valid: 0...2 or -3...-1)"#),
        Case(["select", "main", "99999999999999999999"], 1, "index 99999999999999999999 is out of range for set \"main\" (valid: 0...2 or -3...-1)"),
        Case(["select", "main", "-99999999999999999999"], 1, "index -99999999999999999999 is out of range for set \"main\" (valid: 0...2 or -3...-1)"),
        Case(["remove", "main", "--index", "x"], 2, "The value 'x' is invalid for '--index <index>': it is not an integer"),
        Case(["show", "main", "--width", "5"], 2, "The value '5' is invalid for '--width <columns>': the minimum is 10"),
        Case(["history", "main", "--limit", "0"], 2, "The value '0' is invalid for '--limit <count>': the minimum is 1"),
        Case(["move", "main", "0", "x"], 2, "The value 'x' is invalid for '<to>': it is not an integer"),
        Case(["move", "main", "0", "3"], 1, #"index 3 is out of range for set "main" (valid: 0...2 or -3...-1)"#),
        Case(["move", "main", "0", "9223372036854775807"], 1, #"index 9223372036854775807 is out of range for set "main" (valid: 0...2 or -3...-1)"#),
        Case(["move", "main", "0", "99999999999999999999"], 1, #"index 99999999999999999999 is out of range for set "main" (valid: 0...2 or -3...-1)"#),
        Case(["add", "main", "x", "--at", "99999999999999999999"], 1, #"insertion index 99999999999999999999 is out of range for set "main" (valid: 0...3 or -4...-1)"#),
        Case(["add", "main", "x", "--at=-99999999999999999999"], 1, #"insertion index -99999999999999999999 is out of range for set "main" (valid: 0...3 or -4...-1)"#),
        Case(["remove", "main", "0", "7"], 1, #"index 7 is out of range for set "main" (valid: 0...2 or -3...-1)"#),
        Case(["add", "main", "x", "--at", "5"], 1, #"insertion index 5 is out of range for set "main" (valid: 0...3 or -4...-1)"#),
        Case(["add", "main", "x", "--at", "-9223372036854775808"], 1, #"insertion index -9223372036854775808 is out of range for set "main" (valid: 0...3 or -4...-1)"#),
        // Unknown sets and tabs.
        Case(["select", "nope", "0"], 1, #"no tab set named "nope""#),
        Case(["select", "main", "Nope"], 1, #"no tab titled "Nope" in set "main""#),
        Case(["select", "main", "--title", "0"], 1, #"no tab titled "0" in set "main""#),
        Case(["select", "empty", "0"], 1, #"set "empty" has no tabs"#),
        Case(["restore", "empty"], 1, #"set "empty" has no tabs"#),
        Case(["rename-set", "main", "other"], 1, #"a tab set named "other" already exists"#),
        // Bad titles.
        Case(["add", "main", ""], 1, #"invalid title "": it is empty"#),
        Case(["add", "main", "a\nb"], 1, #"invalid title "a\nb": it contains the control character U+000A"#),
        Case(["add", "main", "tab\u{1}"], 1, #"invalid title "tab\u{1}": it contains the control character U+0001"#),
        Case(["add", "main", "bell\u{7}"], 1, #"invalid title "bell\u{7}": it contains the control character U+0007"#),
        Case(["add", "main", longTitle], 1, "invalid title \"\(String(repeating: "a", count: 60))…\": it has 257 characters, more than the 256 allowed"),
        Case(["add", "main", hugeTitle], 1, "invalid title \"\(String(repeating: "가", count: 60))…\": it has 99999 bytes of UTF-8, more than the 1024 allowed"),
        Case(["rename", "main", "0", "a\tb"], 1, #"invalid title "a\tb": it contains the control character U+0009"#),
        Case(["add", "", "x"], 1, #"invalid set name "": it is empty"#),
        Case(["add", "new\nset", "x"], 1, #"invalid set name "new\nset": it contains the control character U+000A"#),
        // Duplicate titles.
        Case(["add", "main", "Home"], 1, #"set "main" already has a tab titled "Home""#),
        Case(["add", "main", "x", "x"], 1, #"title "x" is given twice"#),
        Case(["rename", "main", "0", "Reviews"], 1, #"set "main" already has a tab titled "Reviews""#),
        // Bad import documents.
        Case(["import", "/no/such/file.json"], 1, "cannot read /no/such/file.json: No such file or directory"),
        Case(["import", "/dev/zero"], 1, "cannot read /dev/zero: it is larger than 1 GiB, the most an import reads"),
        Case(["import", "/dev/null"], 1, "invalid import document: not valid JSON at byte 0: unexpected end of input"),
    ]

    @Test(arguments: cases)
    func malformedInvocationExitsWithItsCodeAndChangesNothing(invocation: Case) throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "1", "Reviews")
        sandbox.add("other", "x")
        #expect(sandbox.run("add", "empty").code == 0)
        let exportBefore = sandbox.run("export").stdout
        let fileBefore = FileManager.default.contents(atPath: sandbox.database)

        let output = sandbox.run(invocation.arguments)
        #expect(output.code == invocation.code)
        if invocation.code != 0 {
            let lines = output.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            // One line; a usage error ends naming the help to read.
            let line = lines.first.map(String.init) ?? ""
            if invocation.code == 2 {
                #expect(line.hasPrefix("tabstore: error: \(invocation.message) (see 'tabstore help") && line.hasSuffix("')"), "\(line)")
            } else {
                #expect(line == "tabstore: error: \(invocation.message)")
            }
            #expect(lines.count == 2)
            #expect(output.stdout == "")
        }
        #expect(sandbox.run("export").stdout == exportBefore)
        #expect(FileManager.default.contents(atPath: sandbox.database) == fileBefore)
    }

    @Test func argumentsThatAreNotUTF8AreRefused() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        let before = sandbox.run("export").stdout
        let output = sandbox.runProcess("/bin/sh", ["-c", #"exec "$0" --db "$1" add main "$(printf 'bad\377byte')""#, TabstoreBinary.path, sandbox.database])
        #expect(output.code == 2)
        #expect(output.stderr == "tabstore: error: Argument 5 is not valid UTF-8 (see 'tabstore help add')\n")
        #expect(sandbox.run("export").stdout == before)
    }
}
