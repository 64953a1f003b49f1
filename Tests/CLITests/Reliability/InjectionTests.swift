import Foundation
import Testing

/// SQL, quotes and format characters in titles and set names are data:
/// stored and printed back verbatim.
@Suite struct InjectionTests {
    static let nasty = [
        "'; DROP TABLE tab; --",
        "\"; DELETE FROM tab_set; --",
        "Robert'); DROP TABLE tab_set;--",
        "%s%n%d %%",
        "back\\slash",
        "' OR '1'='1",
        "탭 \"따옴표\" 'quote'",
    ]

    @Test func nastyTitlesAndSetNamesRoundTripVerbatim() throws {
        let sandbox = Sandbox()
        for name in Self.nasty {
            #expect(sandbox.run(["add", name, "--"] + Self.nasty).code == 0)
        }
        #expect(sandbox.run("list").stdout.split(separator: "\n").count == Self.nasty.count)
        for name in Self.nasty {
            #expect(sandbox.run(["list", name]).stdout == Self.nasty.enumerated().map { index, title in
                (index == 0 ? "* " : "  ") + "\(index)  \(title)\n"
            }.joined())
            #expect(sandbox.run(["select", name, Self.nasty[3]]) == .ok("selected 3: \(Self.nasty[3])\n"))
            #expect(sandbox.run(["restore", name, "--json"]).stdout.contains(#""title":"%s%n%d %%""#))
        }
        // The JSON export carries every byte, and importing it back changes nothing.
        let export = sandbox.run("export").stdout
        let path = sandbox.write(export, to: "export.json")
        #expect(sandbox.run("import", path, "--replace") == .ok("unchanged (\(Self.nasty.count) sets already as in the document)\n"))
        #expect(sandbox.run("export").stdout == export)
        #expect(integrityCheck(sandbox.database) == "ok")
    }
}
