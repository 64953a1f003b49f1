import Foundation
import Testing

/// Exit code 3: the database file or its folder cannot serve the request.
@Suite struct DatabaseErrorTests {
    @Test func aDirectoryIsNotADatabase() {
        let sandbox = Sandbox()
        let output = sandbox.runWithoutDatabase(["list", "--db", sandbox.folder])
        #expect(output.code == 3)
        #expect(output.stdout == "")
        #expect(output.stderr.hasPrefix("tabstore: error: cannot open database \(sandbox.folder): "))
        #expect(output.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func randomBytesAreNotADatabase() {
        let sandbox = Sandbox()
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
        _ = FileManager.default.createFile(atPath: sandbox.database, contents: Data(bytes))
        #expect(sandbox.run("select", "main", "0") == .failure(3, "tabstore: error: \(sandbox.database) is not a database\n"))
        #expect(sandbox.run("select", "main", "0", "--json") == .failure(3,
            #"{"error":{"code":3,"message":""# + sandbox.database + #" is not a database"}}"# + "\n"))
        #expect(FileManager.default.contents(atPath: sandbox.database) == Data(bytes))
    }

    @Test func aFolderThatCannotBeCreated() {
        let sandbox = Sandbox()
        let file = sandbox.write("not a folder", to: "file")
        let database = file + "/sub/tabs.sqlite"
        #expect(sandbox.runWithoutDatabase(["add", "main", "x", "--db", database]) == .failure(3,
            "tabstore: error: cannot create folder \(file)/sub for database \(database): Not a directory\n"))
    }

    @Test func anotherProgramsSQLiteDatabase() throws {
        let sandbox = Sandbox()
        let output = sandbox.runProcess("/bin/sh", ["-c", "command -v sqlite3 >/dev/null && sqlite3 \"$0\" 'CREATE TABLE notes(x)'", sandbox.database])
        try #require(output.code == 0, "sqlite3 command not available")
        #expect(sandbox.run("list") == .failure(3,
            "tabstore: error: \(sandbox.database) is a SQLite database of another program, not a tabstore database\n"))
    }
}
