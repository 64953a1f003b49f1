import Foundation
import Testing
import TabStoreTestSupport

/// Issue 28, items 4 and 6, through the real binary: a file whose rows break the rules or
/// hold integers no tabstore writes. Every command that reads or writes the damaged set
/// exits 3 with one line naming the set and what `info` says of it, nothing on standard
/// output and no row changed; no process dies of a trap; `info` finds it.
@Suite struct DamagedRowCommandTests {
    /// The damages the issue names, from the library tests' generator.
    static let damages: [RowDamage] = {
        let named: Set<String> = [
            "selection in another set", "two tabs at one position", "a gap", "a negative position",
            "base at \(Int.max)", "base at \(Int.min)", "a position at \(Int.max)", "a position at \(Int.min)",
            "revision at \(Int.max)", "a removed tab's position at \(Int.min)",
        ]
        return DamagedRows.all.filter { named.contains($0.name) }
    }()

    /// Every command on set "s" that reads it or builds on it.
    static let commands: [[String]] = [
        ["select", "s", "2"], ["select", "s", "c"], ["select", "s", "-1"], ["add", "s", "n", "--at", "1"], ["add", "s", "n"],
        ["remove", "s", "0"], ["remove", "s", "b"], ["move", "s", "0", "-1"], ["rename", "s", "0", "z"], ["reopen", "s"],
        ["rename-set", "s", "q"], ["remove-set", "s"], ["restore", "s"], ["list", "s"], ["show", "s"], ["export", "s"],
    ]

    /// The fixture of `DamagedRows`, made with the binary, then damaged with sqlite3.
    private func damagedFile(_ damage: RowDamage) -> Sandbox {
        let sandbox = Sandbox()
        sandbox.add("s", "a", "b", "c", "d", "e")
        #expect(sandbox.run("select", "s", "b").code == 0)
        #expect(sandbox.run("remove", "s", "e").code == 0)
        sandbox.add("o", "x", "y")
        #expect(sandbox.run("info").code == 0)
        let edit = sandbox.runProcess("/usr/bin/sqlite3", [sandbox.database, damage.sql])
        #expect(edit.code == 0, "\(edit)")
        return sandbox
    }

    private func dump(_ sandbox: Sandbox) -> String {
        sandbox.runProcess("/usr/bin/sqlite3", ["-readonly", sandbox.database, ".dump"]).stdout
    }

    @Test(arguments: damages)
    func everyCommandOnTheDamagedSetExitsThreeAndWritesNothing(damage: RowDamage) throws {
        let finding = try #require(damage.damage)
        let sandbox = damagedFile(damage)
        let before = dump(sandbox)
        let line = "tabstore: error: set \"s\" is damaged: \(finding)\n"
        for command in Self.commands {
            let output = sandbox.runWithoutDatabase(["--db", sandbox.database] + command)
            #expect(output == .failure(3, line), "\(command.joined(separator: " "))")
            #expect(dump(sandbox) == before, "\(command.joined(separator: " ")) wrote")
        }
        let json = sandbox.run("select", "s", "2", "--json")
        #expect(json.code == 3 && json.stdout.isEmpty && json.stderr.hasPrefix(#"{"error":{"code":3,"message":"set \"s\" is damaged: "#))
        // The first finding is the one the commands give (a revision out of range is also
        // not its newest change's).
        let info = sandbox.run("info")
        #expect(info.code == 3 && info.stderr.hasPrefix("tabstore: error: the check of database \(sandbox.database) found: set \"s\": \(finding)"), "\(info)")
        // The other set is untouched, and still takes writes.
        #expect(sandbox.run("select", "o", "y") == .ok("selected 1: y\n"))
        // The overview of every set still lists them (without the rule check: see tabSets()),
        // with the count of its tabs and no selected index outside them.
        let list = sandbox.run("list")
        #expect(list.code == 0 && list.stdout.hasPrefix("o  2 tabs  y\ns  4 tabs  "), "\(list)")
    }
}
