import Foundation
import Testing

@Suite struct ShowCommandTests {
    static let nine = ["Home", "All menu", "Reviews", "Photos", "Map", "Info", "Q&A", "Coupons", "Delivery"]

    /// `Golden/show-NAME.txt`, read beside this file so the package declares no resources.
    static func golden(_ name: String) -> String {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let url = folder.appendingPathComponent("Golden/show-\(name).txt")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record("missing golden file \(url.path)")
            return ""
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// (golden file, titles, tab to select, --width); standard output is a file, so the
    /// underline is drawn as a second line.
    static let cases: [(String, [String], String, String)] = [
        ("fitting", ["Home", "All menu", "Reviews"], "Reviews", "80"),
        ("overflow-start", nine, "0", "30"),
        ("overflow-middle", nine, "Photos", "30"),
        ("overflow-end", nine, "-1", "30"),
        ("korean", ["홈", "전체 메뉴", "iOS 앱 개발 알아가기", "리뷰", "🍕 피자", "사진"], "iOS 앱 개발 알아가기", "30"),
        ("width-20", nine, "Map", "20"),
        ("too-wide-title", ["홈", "iOS 앱 개발 알아가기", "리뷰"], "1", "12"),
    ]

    @Test(arguments: cases)
    func matchesGoldenFile(name: String, titles: [String], selected: String, width: String) {
        let sandbox = Sandbox()
        sandbox.add("main", titles)
        #expect(sandbox.run("select", "main", selected).code == 0)
        #expect(sandbox.run("show", "main", "--width", width) == .ok(Self.golden(name)))
    }

    @Test func columnsGivesTheWidthAndNoColorKeepsPlainText() {
        let sandbox = Sandbox()
        sandbox.add("main", Self.nine)
        _ = sandbox.run("select", "main", "Map")
        #expect(sandbox.run("show", "main", environment: ["COLUMNS": "20"]) == .ok(Self.golden("width-20")))
        #expect(sandbox.run("show", "main", environment: ["COLUMNS": "20", "NO_COLOR": "1"]) == .ok(Self.golden("width-20")))
        // --width wins; a COLUMNS that is not a positive integer is ignored (no terminal: 80).
        #expect(sandbox.run("show", "main", "--width", "20", environment: ["COLUMNS": "200"]) == .ok(Self.golden("width-20")))
        #expect(sandbox.run("show", "main", environment: ["COLUMNS": "wide"]).stdout.hasPrefix(" Home  All menu  Reviews  Photos  Map  Info  Q&A  Coupons  Delivery\n"))
        // A narrow terminal is drawn at the minimum width.
        #expect(sandbox.run("show", "main", environment: ["COLUMNS": "4"]).stdout.split(separator: "\n").first == "‹ Map    ›")
    }

    @Test func jsonGivesTheGeometry() {
        let sandbox = Sandbox()
        sandbox.add("main", Self.nine)
        _ = sandbox.run("select", "main", "Photos")
        #expect(sandbox.run("show", "main", "--width", "30", "--json") == .ok(
            #"{"set":"main","width":30,"contentWidth":68,"visibleWidth":28,"offset":16,"widthRatio":0.4117647058823529,"leftOffsetRatio":0.23529411764705882,"selectedIndex":3,"firstVisibleIndex":2,"lastVisibleIndex":5,"lines":["‹ Reviews  Photos  Map  Info ›","           ‾‾‾‾‾‾"," ───────━━━━━━━━━━━━─────────"]}"# + "\n"))
    }

    @Test func anEmptySet() {
        let sandbox = Sandbox()
        sandbox.add("empty")
        #expect(sandbox.run("show", "empty") == .ok("(no tabs)\n"))
        #expect(sandbox.run("show", "empty", "--json") == .ok(
            #"{"set":"empty","width":80,"contentWidth":0,"visibleWidth":0,"offset":0,"widthRatio":1.0,"leftOffsetRatio":0.0,"selectedIndex":null,"firstVisibleIndex":null,"lastVisibleIndex":null,"lines":["(no tabs)"]}"# + "\n"))
    }

    @Test func anUnknownSetIsAnError() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        #expect(sandbox.run("show", "nope") == .failure(1, "tabstore: error: no tab set named \"nope\"\n"))
    }

    /// The limit is stated.
    @Test(arguments: [("9", ": the minimum is 10"), ("5", ": the minimum is 10"), ("0", ": the minimum is 10"), ("-30", ": the minimum is 10"), ("x", ": it is not an integer")])
    func widthMustBeTenOrMore(width: String, limit: String) {
        let sandbox = Sandbox()
        #expect(sandbox.run("show", "main", "--width", width) == .failure(2, """
            tabstore: error: The value '\(width)' is invalid for '--width <columns>'\(limit) (see 'tabstore help show')

            """))
        #expect(!sandbox.exists(sandbox.database))
    }

    /// On a terminal (a pseudo-terminal from script(1)), bold and underline replace the second line.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) at /usr/bin/script (bsdutils) for a pseudo-terminal"))
    func aTerminalGetsBoldUnderline() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "All menu", "Reviews")
        _ = sandbox.run("select", "main", "1")
        let command = "'\(TabstoreBinary.path)' --db '\(sandbox.database)' show main --width 40"
        let styled = sandbox.runProcess("/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(styled.stdout == " Home  \u{1B}[1;4mAll menu\u{1B}[0m  Reviews\r\n")
        let plain = sandbox.runProcess("/usr/bin/script", ["-qec", command, "/dev/null"], environment: ["NO_COLOR": "1"])
        #expect(plain.stdout == " Home  All menu  Reviews\r\n       ‾‾‾‾‾‾‾‾\r\n")
    }
}

extension Sandbox {
    /// `add SET TITLES...` from an array.
    func add(_ set: String, _ titles: [String]) {
        let output = runWithoutDatabase(["--db", database, "add", set, "--"] + titles)
        #expect(output.code == 0, "setup add failed: \(output)")
    }
}
