import Foundation
import Testing

/// Messages that said something vague, or something untrue. Each is
/// asserted whole: stdout, stderr and the exit code.
@Suite struct MessageTests {
    /// A usage error: one line, naming the help of `command` (the root's when `nil`).
    private func usage(_ message: String, help command: String?) -> Output {
        .failure(2, "tabstore: error: \(message) (see 'tabstore help\(command.map { " " + $0 } ?? "")')\n")
    }

    // MARK: What is at the database path

    @Test func aNamedPipeIsNamed() throws {
        let sandbox = Sandbox()
        let fifo = sandbox.folder + "/fifo"
        #expect(mkfifo(fifo, 0o644) == 0)
        for command in [["list"], ["add", "main", "x"]] {
            #expect(sandbox.runWithoutDatabase(["--db", fifo] + command) == .failure(3,
                "tabstore: error: cannot open database \(fifo): it is a named pipe (FIFO), not a file\n"))
        }
    }

    @Test func aSymbolicLinkLoopIsNamed() throws {
        let sandbox = Sandbox()
        let first = sandbox.folder + "/one", second = sandbox.folder + "/two"
        try FileManager.default.createSymbolicLink(atPath: first, withDestinationPath: second)
        try FileManager.default.createSymbolicLink(atPath: second, withDestinationPath: first)
        for command in [["list"], ["add", "main", "x"]] {
            #expect(sandbox.runWithoutDatabase(["--db", first] + command) == .failure(3,
                "tabstore: error: cannot open database \(first): its symbolic links form a loop (Too many levels of symbolic links)\n"))
        }
    }

    /// /dev/null read as an empty database, and took writes: "added 1 tab" was untrue.
    @Test func aDeviceIsNoDatabase() {
        let sandbox = Sandbox()
        for command in [["list"], ["add", "main", "x"]] {
            #expect(sandbox.runWithoutDatabase(["--db", "/dev/null"] + command) == .failure(3,
                "tabstore: error: cannot open database /dev/null: it is a device, not a file\n"))
        }
    }

    @Test func anEmptyDatabaseOptionSaysWhatToDo() {
        let sandbox = Sandbox()
        #expect(sandbox.runWithoutDatabase(["list", "--db", ""]) == usage(
            "--db is empty; leave it out or give a path", help: "list"))
        #expect(sandbox.runWithoutDatabase(["list"], environment: ["TABSTORE_DB": ""]) == usage(
            "TABSTORE_DB is set but empty; unset it or give a path", help: "list"))
    }

    // MARK: Edits that change nothing

    /// A call that changed nothing says so, as `select` says `already selected`, and
    /// writes nothing: no revision, no history.
    @Test func editsThatChangeNothingSaySo() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews")
        let history = sandbox.run("history", "main")
        #expect(sandbox.run("move", "main", "Reviews", "1") == .ok("nothing changed: Reviews is already at 1\n"))
        #expect(sandbox.run("move", "main", "0", "-2") == .ok("nothing changed: Home is already at 0\n"))
        #expect(sandbox.run("rename", "main", "Home", "Home") == .ok("nothing changed: the tab is already titled Home\n"))
        #expect(sandbox.run("add", "main") == .ok("nothing changed: no titles to add to main\n"))
        #expect(sandbox.run("rename-set", "main", "main") == .ok("nothing changed: the set is already named main\n"))
        #expect(sandbox.run("history", "main") == history)
        // A set made without tabs is a change, and says what it is.
        #expect(sandbox.run("add", "empty") == .ok("created set empty (no tabs)\n"))
        #expect(sandbox.run("list", "empty") == .ok("(no tabs)\n"))
    }

    @Test func listOfAnEmptySetSaysSoAsShowDoes() {
        let sandbox = Sandbox()
        #expect(sandbox.run("add", "empty").code == 0)
        #expect(sandbox.run("list", "empty") == .ok("(no tabs)\n"))
        #expect(sandbox.run("show", "empty") == .ok("(no tabs)\n"))
        #expect(sandbox.run("--json", "list", "empty").stdout.hasSuffix(#""selectedIndex":null,"tabs":[]}"# + "\n"))
    }

    // MARK: What help and messages say about names

    /// Help said `add --if-revision 0` accepts a missing set; a removed set's name is
    /// left at its last revision, so that is refused. Help now says so, and it is true.
    @Test func ifRevisionOnAddCountsAMissingSetAtItsNamesRevision() {
        let sandbox = Sandbox()
        let help = sandbox.run("help", "add").stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("For a missing set, 'add' counts the revision its name was left at: 0 for a name never used, else where the set that last had it was removed or renamed away."))
        #expect(sandbox.run("add", "new", "a", "--if-revision", "0") == .ok("added 1 tab to new\n"))
        sandbox.add("gone", "a")
        #expect(sandbox.run("remove-set", "gone").code == 0)
        #expect(sandbox.run("add", "gone", "a", "--if-revision", "0") == .failure(1,
            "tabstore: error: set \"gone\" does not exist: its name was left at revision 2, not 0\n"))
        #expect(sandbox.run("add", "gone", "a", "--if-revision", "2") == .ok("added 1 tab to gone\n"))
    }

    /// A backslash is shown as typed, and doubled only where it would read as an escape:
    /// "C:\tabs", shown as typed, would read as "C:", a tab character and "abs".
    @Test func backslashesInNamesAreShownAsTypedUnlessTheyWouldReadAsAnEscape() {
        let sandbox = Sandbox()
        #expect(sandbox.run("select", #"C:\tabs"#, "0") == .failure(1,
            #"tabstore: error: no tab set named "C:\\tabs"; to type a name as text output shows it, add --escaped"# + "\n"))
        #expect(sandbox.run("select", #"C:\Users"#, "0") == .failure(1, #"tabstore: error: no tab set named "C:\Users""# + "\n"))
        sandbox.add(#"a\b"#, #"x\"y"#)
        #expect(sandbox.run("select", #"a\b"#, "nope") == .failure(1, #"tabstore: error: no tab titled "nope" in set "a\b""# + "\n"))
        #expect(sandbox.run("add", #"a\b"#, #"x\"y"#) == .failure(1, #"tabstore: error: set "a\b" already has a tab titled "x\"y""# + "\n"))
        // JSON escapes a backslash, as JSON must: the message it carries has one.
        #expect(sandbox.run("--json", "select", #"a\b"#, "nope") == .failure(1,
            #"{"error":{"code":1,"message":"no tab titled \"nope\" in set \"a\\b\""}}"# + "\n"))
    }

    @Test func aTitleStartingWithADashIsShownTheWay() {
        let sandbox = Sandbox()
        #expect(sandbox.run("add", "main", "-x") == usage(
            "Unknown option '-x'; if '-x' is a title or name, put '--' before it", help: "add"))
        #expect(sandbox.run("add", "main", "--", "-x") == .ok("added 1 tab to main\n"))
        // A known option's near miss is still suggested first; a command without names gets no hint.
        #expect(sandbox.run("add", "main", "--att", "1") == usage("Unknown option '--att'; did you mean '--at'?", help: "add"))
        #expect(sandbox.run("info", "-x") == usage("Unknown option '-x'", help: "info"))
    }

    /// `--title --json` took `--json` as the flag: JSON output, and "missing value".
    @Test func aTitleThatLooksLikeAnOptionIsATitle() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "--json", "-h")
        #expect(sandbox.run("select", "main", "--title", "--json") == .ok("selected 1: --json\n"))
        #expect(sandbox.run("select", "main", "--title", "-h") == .ok("selected 2: -h\n"))
        #expect(sandbox.run("rename", "main", "--title", "--json", "JSON") == .ok("renamed --json to JSON\n"))
        #expect(sandbox.run("select", "main", "--title") == usage(
            "Missing value for '--title <title>'", help: "select"))
    }

    @Test(arguments: [("LIST", "list"), ("Lsit", "list"), ("SELECT", "select"), ("Remove-Set", "remove-set")])
    func caseOnlyMistakesInCommandsGetASuggestion(typed: String, meant: String) {
        #expect(Sandbox().run(typed) == usage(
            "Unknown subcommand '\(typed)'; did you mean '\(meant)'?", help: nil))
    }

    @Test func caseOnlyMistakesInOptionsGetASuggestion() {
        let sandbox = Sandbox()
        #expect(sandbox.run("list", "--JSON") == usage("Unknown option '--JSON'; did you mean '--json'?", help: "list"))
        #expect(sandbox.run("add", "main", "x", "--AT", "0") == usage(
            "Unknown option '--AT'; did you mean '--at'?", help: "add"))
    }

    // MARK: Import documents

    @Test func aDocumentFromANewerTabstoreSaysSo() {
        let sandbox = Sandbox()
        let file = sandbox.write(#"{"format":"tabstore","version":3,"sets":[]}"#, to: "new.json")
        #expect(sandbox.run("import", file) == .failure(1,
            "tabstore: error: invalid import document: \"version\" 3 is from a newer tabstore (this one reads 1 or 2); upgrade tabstore\n"))
        let zero = sandbox.write(#"{"format":"tabstore","version":0,"sets":[]}"#, to: "zero.json")
        #expect(sandbox.run("import", zero) == .failure(1, "tabstore: error: invalid import document: \"version\" must be 1 or 2\n"))
        #expect(!sandbox.exists(sandbox.database))
    }

    @Test(arguments: [
        ("UTF-16LE", [0xFF, 0xFE] as [UInt8], String.Encoding.utf16LittleEndian),
        ("UTF-16BE", [0xFE, 0xFF], .utf16BigEndian),
        ("UTF-16LE", [], .utf16LittleEndian),
        ("UTF-16BE", [], .utf16BigEndian),
        ("UTF-32LE", [0xFF, 0xFE, 0, 0], .utf32LittleEndian),
        ("UTF-32BE", [], .utf32BigEndian),
    ])
    func aWideDocumentSaysItsEncoding(name: String, byteOrderMark: [UInt8], encoding: String.Encoding) throws {
        let sandbox = Sandbox()
        let text = #"{"format":"tabstore","version":2,"sets":[]}"#
        let path = sandbox.folder + "/wide.json"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(byteOrderMark) + (try #require(text.data(using: encoding)))))
        #expect(sandbox.run("import", path) == .failure(1,
            "tabstore: error: invalid import document: it is \(name) text; tabstore reads UTF-8 (convert it, for example with iconv -f \(name) -t UTF-8)\n"))
        // What the message says works.
        let converted = sandbox.runProcess("/bin/sh", ["-c", "iconv -f \(name) -t UTF-8 \(path) > \(path).utf8"])
        #expect(converted.code == 0)
        #expect(sandbox.run("import", path + ".utf8") == .ok("imported 0 sets\n"))
    }
}
