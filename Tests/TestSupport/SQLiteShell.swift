import Foundation

/// The `sqlite3` shell, run on a file as another program (or a person) would.
public enum SQLiteShell {
    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }

    /// What `sqlite3 options path sql` prints.
    ///
    /// - Throws: `Failed` when the shell exits non-zero.
    public static func run(_ path: String, _ sql: String, options: [String] = []) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = options + [path, sql]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(description: "sqlite3 exited \(process.terminationStatus) on \(sql)")
        }
        return text
    }
}
