#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the database lives: `--db`, else `$TABSTORE_DB`, else
/// `$XDG_DATA_HOME/tabstore/tabs.sqlite`, else `$HOME/.local/share/tabstore/tabs.sqlite`.
enum DatabasePath {
    /// The path to open. An empty `--db` or a set but empty `TABSTORE_DB` is a usage
    /// error: falling through to the user's real database would act on data nobody named. Empty
    /// XDG variables count as unset, and a relative `XDG_DATA_HOME` is ignored, as the
    /// XDG spec says. A variable that is used and is not UTF-8 is a usage error, as such
    /// an argument is: read as text, two different paths would name one file.
    static func resolve(option: String?, environment: Environment, command: String? = nil) throws(CLIError) -> String {
        if let option {
            guard !option.isEmpty else {
                throw .usage(UsageError(message: "--db is empty; leave it out or give a path", command: command))
            }
            return option
        }
        func refuseIfNotUTF8(_ name: String, _ advice: String) throws(CLIError) {
            guard environment.isNotUTF8(name) else { return }
            throw .usage(UsageError(message: "\(name) is not valid UTF-8; \(advice)", command: command))
        }
        if let path = environment.value("TABSTORE_DB") {
            guard !path.isEmpty else {
                throw .usage(UsageError(message: "TABSTORE_DB is set but empty; unset it or give a path", command: command))
            }
            try refuseIfNotUTF8("TABSTORE_DB", "unset it or give a path in UTF-8")
            return path
        }
        func variable(_ name: String) -> String? {
            environment.value(name).flatMap { $0.isEmpty ? nil : $0 }
        }
        if let dataHome = variable("XDG_DATA_HOME"), dataHome.hasPrefix("/") {
            try refuseIfNotUTF8("XDG_DATA_HOME", "unset it, pass --db PATH or set TABSTORE_DB")
            return dataHome + "/tabstore/tabs.sqlite"
        }
        if let home = variable("HOME") {
            try refuseIfNotUTF8("HOME", "pass --db PATH or set TABSTORE_DB")
            return home + "/.local/share/tabstore/tabs.sqlite"
        }
        throw .databasePath("cannot choose a database path: HOME is not set; pass --db PATH or set TABSTORE_DB")
    }

    /// `path` from the root: as given when it starts with `/`, else under the current
    /// folder; without `.` components.
    static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : currentFolder().map { $0 + "/" + path } ?? path
        guard full.hasPrefix("/") else { return full }
        // `.` and doubled slashes name nothing: `./tabs.sqlite` is `tabs.sqlite`. A `..` is
        // kept, as it is not the folder before it when that is a symbolic link.
        return "/" + full.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }

    private static func currentFolder() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether two paths name one file that exists (through `.`, `..`, another spelling or
    /// a symbolic link): a `postgresql://` URL names none.
    static func isSameFile(_ a: String, _ b: String) -> Bool {
        guard let first = fileIdentity(a) else { return false }
        return fileIdentity(b) == first
    }

    /// The file `path` names now (its device and inode): nil for a `postgresql://` URL or
    /// a path that names nothing.
    static func fileIdentity(_ path: String) -> FileIdentity? {
        guard !isServerURL(path) else { return nil }
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// Whether `location` names a database on a PostgreSQL server rather than a file: it
    /// starts with `postgresql:` or `postgres:`, in any case. The same rule as
    /// `TabStore.isPostgresURL`, which lives in TabStorePostgres, a module `tabstore` does not
    /// link; `DatabasePathTests` holds the two to the same answers.
    static func isServerURL(_ location: String) -> Bool {
        let scheme = String(location.prefix(11)).lowercased()
        return scheme.hasPrefix("postgresql:") || scheme.hasPrefix("postgres:")
    }
}

/// Which file a path named when it was looked at: another file put at the path, or the
/// file moved away, has another identity (or none).
struct FileIdentity: Sendable, Hashable {
    let device: UInt64
    let inode: UInt64
}
