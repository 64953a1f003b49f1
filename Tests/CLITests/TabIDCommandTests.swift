import Foundation
import Testing

/// Tab ids and payloads from the command line: `--id`, ids and payloads in `--json`, `set-data`.
@Suite struct TabIDCommandTests {
    /// The ids of a set's tabs, in order, as `list <set> --json` shows them.
    private func ids(_ sandbox: Sandbox, _ set: String) throws -> [String] {
        let output = sandbox.run("--json", "list", set)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let tabs = try #require(object["tabs"] as? [[String: Any]])
        return tabs.compactMap { $0["id"] as? String }
    }

    @Test func idSelectsATabWhereverItMoved() throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews", "1")
        let reviews = try ids(sandbox, "main")[1]
        #expect(sandbox.run("move", "main", "--id", reviews, "0") == .ok("moved Reviews to 0\n"))
        #expect(sandbox.run("rename", "main", "--id", reviews.uppercased(), "리뷰") == .ok("renamed Reviews to 리뷰\n"))
        #expect(sandbox.run("select", "main", "--id=\(reviews)") == .ok("selected 0: 리뷰\n"))
        #expect(try ids(sandbox, "main")[0] == reviews)
        #expect(sandbox.run("remove", "main", "--id", reviews) == .ok("removed 1 tab from main\n"))
        _ = sandbox.run("reopen", "main")
        #expect(try ids(sandbox, "main")[0] == reviews)
    }

    @Test func aBadOrMissingIdIsAClearError() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        #expect(sandbox.run("select", "main", "--id", "nope") == .failure(2, """
            tabstore: error: The value 'nope' is invalid for '--id <id>': it is not a tab id (a UUID such as 0f8fad5b-d9cb-469f-a165-70867728950e) (see 'tabstore help select')

            """))
        #expect(sandbox.run("select", "main", "--id", "0f8fad5b-d9cb-469f-a165-70867728950e") == .failure(1,
            "tabstore: error: no tab with id 0f8fad5b-d9cb-469f-a165-70867728950e in set \"main\"\n"))
    }

    @Test func setDataReplacesATabsDataAndShowsItInJSON() throws {
        let sandbox = Sandbox()
        sandbox.add("main", "Home", "Reviews")
        #expect(sandbox.run("set-data", "main", "Reviews", "route=/reviews?sort=new", "icon=star") == .ok("set 2 entries on Reviews\n"))
        #expect(sandbox.run("set-data", "main", "1", "route=/reviews?sort=new", "icon=star") == .ok("nothing changed: the tab already has this data (2 entries)\n"))
        #expect(sandbox.run("--json", "list", "main").maskingIDs == .ok(
            #"{"set":"main","revision":2,"selectedIndex":0,"tabs":[{"index":0,"id":"ID","title":"Home","selected":true,"payload":{}},{"index":1,"id":"ID","title":"Reviews","selected":false,"payload":{"icon":"star","route":"/reviews?sort=new"}}]}"# + "\n"))
        let id = try ids(sandbox, "main")[1]
        #expect(sandbox.run("set-data", "main", "--id", id) == .ok("set 0 entries on Reviews\n"))
        #expect(sandbox.run("history", "main").stdout.contains("set data of 1: Reviews\n"))
    }

    @Test func setDataRefusesBadEntriesAndChangesNothing() {
        let sandbox = Sandbox()
        sandbox.add("main", "Home")
        #expect(sandbox.run("set-data", "main", "Home", "novalue") == .failure(2, """
            tabstore: error: The value 'novalue' is invalid for '<entry>': it has no '=' (KEY=VALUE) (see 'tabstore help set-data')

            """))
        #expect(sandbox.run("set-data", "main", "Home", "=x") == .failure(1, "tabstore: error: a tab data key is empty\n"))
        #expect(sandbox.run("set-data", "main", "Home", "k=" + String(repeating: "x", count: 4096)) == .failure(1,
            "tabstore: error: tab data of 4097 bytes is over the limit of 4096 bytes (keys and values, UTF-8)\n"))
        #expect(sandbox.run("--json", "list", "main").maskingIDs == .ok(
            #"{"set":"main","revision":1,"selectedIndex":0,"tabs":[{"index":0,"id":"ID","title":"Home","selected":true,"payload":{}}]}"# + "\n"))
    }
}
