import Foundation
import Testing

@Suite struct ExportImportTests {
    private func filled() -> Sandbox {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "리뷰", "1")
        sandbox.add("empty")
        _ = sandbox.run("select", "main", "-1")
        return sandbox
    }

    private let document = """
        {
          "format": "tabstore",
          "version": 1,
          "sets": [
            {
              "name": "empty",
              "selectedIndex": null,
              "tabs": []
            },
            {
              "name": "main",
              "selectedIndex": 2,
              "tabs": [
                "Home",
                "리뷰",
                "1"
              ]
            }
          ]
        }

        """

    /// What `export` writes for `filled()`: version 2, with each tab's id (masked here).
    private let exported = """
        {
          "format": "tabstore",
          "version": 2,
          "sets": [
            {
              "name": "empty",
              "selectedIndex": null,
              "tabs": [],
              "ids": []
            },
            {
              "name": "main",
              "selectedIndex": 2,
              "tabs": [
                "Home",
                "리뷰",
                "1"
              ],
              "ids": [
                "ID",
                "ID",
                "ID"
              ]
            }
          ]
        }

        """

    /// With --json every output is one line of JSON, the document included.
    /// A document whose ids another set's tabs now have (exported, then the set renamed)
    /// is refused for what it is, with the way out, and writes nothing.
    @Test func anImportWhoseIDsAnotherSetHoldsSaysHowToImportIt() throws {
        let sandbox = Sandbox()
        sandbox.add("a", "x", "y")
        let document = sandbox.run("export").stdout
        #expect(sandbox.run("rename-set", "a", "b").code == 0)
        let refused = sandbox.run("import", "-", "--replace", stdin: document)
        #expect(refused.code == 1)
        #expect(refused.stderr.hasPrefix("tabstore: error: cannot import sets[0].ids[0]: id "))
        #expect(refused.stderr.hasSuffix(#" already belongs to a tab in set "b" (leave out the document's "ids" to give its tabs new ones)"# + "\n"))
        #expect(sandbox.run("list") == .ok("b  2 tabs  x\n"))
    }

    /// A closed standard input is not an empty document: it says so, and creates nothing.
    /// Past the 64 MiB import once read (an export of a hundred sets with large payloads
    /// is that big): a document is read up to 1 GiB. Here 65 MiB of trailing spaces.
    @Test func aDocumentLargerThan64MiBImports() throws {
        let sandbox = Sandbox()
        let file = sandbox.folder + "/large.json"
        let padding = String(repeating: " ", count: 65 << 20)
        try (#"{"format":"tabstore","version":2,"sets":[{"name":"s","selectedIndex":0,"tabs":["A"]}]}"# + padding)
            .write(toFile: file, atomically: false, encoding: .utf8)
        #expect(sandbox.run("import", file) == .ok("imported 1 set\n"))
        #expect(sandbox.list("s") == "* 0  A\n")
    }

    @Test func importFromAClosedStandardInputSaysItIsClosed() {
        let sandbox = Sandbox()
        let run = sandbox.runProcess("/bin/sh", ["-c", "exec \"$0\" --db \"$1\" import - <&-", TabstoreBinary.path, sandbox.database])
        #expect(run == .failure(1, "tabstore: error: cannot read standard input: Bad file descriptor\n"))
        #expect(!sandbox.exists(sandbox.database))
    }

    @Test func exportIsPrettyAndOneLineWithJSON() throws {
        let sandbox = filled()
        let pretty = sandbox.run("export")
        #expect(pretty.maskingIDs == .ok(exported))
        let compact = try JSONSerialization.jsonObject(with: Data(pretty.stdout.utf8)) as? NSDictionary
        let output = sandbox.run("export", "--json")
        #expect(output.code == 0 && output.stderr == "")
        #expect(output.stdout.split(separator: "\n").count == 1 && output.stdout.hasSuffix("}\n"))
        #expect(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? NSDictionary == compact)
    }

    /// A set named twice is exported once, so the document imports.
    @Test func aSetNamedTwiceIsExportedOnceAndImports() {
        let sandbox = filled()
        let output = sandbox.run("--json", "export", "main", "main")
        #expect(output.maskingIDs == .ok(#"{"format":"tabstore","version":2,"sets":[{"name":"main","selectedIndex":2,"tabs":["Home","리뷰","1"],"ids":["ID","ID","ID"]}]}"# + "\n"))
        let other = Sandbox()
        #expect(other.run("import", "-", stdin: output.stdout) == .ok("imported 1 set\n"))
    }

    @Test func exportNamedSetsInTheGivenOrder() {
        let sandbox = filled()
        let output = sandbox.run("export", "main", "empty")
        #expect(output.code == 0)
        #expect(output.stdout.firstRange(of: "\"main\"")!.lowerBound < output.stdout.firstRange(of: "\"empty\"")!.lowerBound)
        #expect(sandbox.run("export", "nope") == .failure(1, "tabstore: error: no tab set named \"nope\"\n"))
    }

    @Test func exportThenImportReplaceRoundTrips() {
        let source = filled()
        let target = Sandbox()
        target.add("main", "Other")
        #expect(target.run("import", "-", stdin: document) == .failure(1,
            "tabstore: error: a tab set named \"main\" already exists\n"))
        #expect(target.run("list") == .ok("main  1 tab   Other\n"))
        let sourceExport = source.run("export").stdout
        #expect(target.run("import", "-", "--replace", stdin: sourceExport) == .ok("imported 2 sets\n"))
        // The same document, ids included: the import kept them.
        #expect(target.run("export") == .ok(sourceExport))
        #expect(target.list("main") == "  0  Home\n  1  리뷰\n* 2  1\n")
    }

    @Test func importFromAFile() {
        let sandbox = Sandbox()
        let path = sandbox.write(document, to: "tabs.json")
        #expect(sandbox.run("import", path) == .ok("imported 2 sets\n"))
        #expect(sandbox.run("list") == .ok("empty  0 tabs  -\nmain   3 tabs  1\n"))
    }

    @Test func importJSON() {
        let sandbox = Sandbox()
        #expect(sandbox.run("import", "-", "--json", stdin: document) == .ok(#"{"imported":2,"unchanged":0,"sets":["empty","main"]}"# + "\n"))
    }

    @Test func oneSet() {
        let sandbox = Sandbox()
        let one = #"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":0,"tabs":["x"]}]}"#
        #expect(sandbox.run("import", "-", stdin: one) == .ok("imported 1 set\n"))
    }

    @Test(arguments: [
        ("", "invalid import document: not valid JSON at byte 0: unexpected end of input"),
        (#"{"format":"tabstore","version":3,"sets":[]}"#, #"invalid import document: \"version\" 3 is from a newer tabstore (this one reads 1 or 2); upgrade tabstore"#),
        (#"{"format":"tabstore","version":1,"sets":[{"name":"a","selectedIndex":3,"tabs":["x"]}]}"#,
         "invalid import document: sets[0].selectedIndex must be an index in 0...0"),
    ])
    func aMalformedDocumentWritesNothing(input: String, message: String) {
        let sandbox = Sandbox()
        #expect(sandbox.run("import", "-", "--json", stdin: input) == .failure(1,
            #"{"error":{"code":1,"message":""# + message + #""}}"# + "\n"))
        // Checked before the database is even opened.
        #expect(!sandbox.exists(sandbox.database))
    }

    /// `--output -` wrote a file named `-`, though `import -` reads standard input: it is
    /// standard output, as without --output (so `--force` has nothing to replace); `./-`
    /// still names a file.
    @Test func outputDashIsStandardOutput() {
        let sandbox = filled()
        // Run in the sandbox's folder, where a file named `-` would appear.
        let inFolder = #"cd "$1" && exec "$0" --db "$2" "${@:3}""#
        let run = { (arguments: [String]) in
            sandbox.runProcess("/bin/bash", ["-c", inFolder, TabstoreBinary.path, sandbox.folder, sandbox.database] + arguments)
        }
        #expect(run(["export", "--output", "-"]) == sandbox.run("export"))
        #expect(run(["--json", "export", "main", "--output", "-"]) == sandbox.run("--json", "export", "main"))
        #expect(!sandbox.exists(sandbox.folder + "/-"))
        let force = run(["export", "--output", "-", "--force"])
        #expect(force.code == 2)
        #expect(force.stderr == "tabstore: error: '--force' replaces the file of '--output <file>', and '-' is standard output (see 'tabstore help export')\n")
        #expect(run(["export", "--output", "./-"]) == .ok("exported 2 sets to ./-\n"))
        #expect(FileManager.default.contents(atPath: sandbox.folder + "/-") == Data(sandbox.run("export").stdout.utf8))
    }

    @Test func aMalformedDocumentLeavesExistingSetsAlone() {
        let sandbox = filled()
        let before = sandbox.run("export").stdout
        let bad = #"{"format":"tabstore","version":1,"sets":[{"name":"main","selectedIndex":0,"tabs":["a","a"]}]}"#
        #expect(sandbox.run("import", "-", "--replace", stdin: bad) == .failure(1,
            "tabstore: error: invalid import document: sets[0].tabs[1]: title \"a\" appears twice\n"))
        #expect(sandbox.run("export").stdout == before)
    }

    @Test func aMissingFileIsNamed() {
        let sandbox = Sandbox()
        #expect(sandbox.run("import", sandbox.folder + "/nope.json") == .failure(1,
            "tabstore: error: cannot read \(sandbox.folder)/nope.json: No such file or directory\n"))
        #expect(sandbox.run("import", sandbox.folder) == .failure(1,
            "tabstore: error: cannot read \(sandbox.folder): Is a directory\n"))
    }

    @Test func importingTheSameDocumentAgainChangesNothing() {
        let sandbox = filled()
        let exported = sandbox.run("export").stdout
        let before = sandbox.run("--json", "list").stdout
        let history = sandbox.run("history", "main").stdout
        #expect(sandbox.run("import", "-", "--replace", stdin: exported) == .ok("unchanged (2 sets already as in the document)\n"))
        #expect(sandbox.run("import", "-", "--replace", "--json", stdin: exported) == .ok(
            #"{"imported":0,"unchanged":2,"sets":["empty","main"]}"# + "\n"))
        #expect(sandbox.run("--json", "list").stdout == before)
        #expect(sandbox.run("history", "main").stdout == history)
        _ = sandbox.run("select", "main", "0")
        #expect(sandbox.run("import", "-", "--replace", stdin: exported) == .ok("imported 1 set (1 unchanged)\n"))
        #expect(sandbox.list("main") == "  0  Home\n  1  리뷰\n* 2  1\n")
    }

    @Test func aSetCreatedByImportIsJournaledAsAdded() {
        let sandbox = Sandbox()
        #expect(sandbox.run("import", "-", stdin: document) == .ok("imported 2 sets\n"))
        #expect(sandbox.run("history", "main").stdout.split(separator: "\n").map { WatchCommandTests.masked(String($0)) } == [
            "2  TIME  selected 2: 1 (was 0: Home)",
            "1  TIME  added 3 tabs at 0: Home, 리뷰, 1",
        ])
    }

    @Test func aByteOrderMarkIsAccepted() {
        let sandbox = Sandbox()
        #expect(sandbox.run("import", "-", stdin: "\u{FEFF}" + document) == .ok("imported 2 sets\n"))
        #expect(sandbox.run("export").maskingIDs == .ok(exported))
    }
}
