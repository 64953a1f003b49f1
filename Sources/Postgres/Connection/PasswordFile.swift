#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A password file that libpq would refuse to read (one others have access to, or not a plain
/// file). libpq says so with a line of its own on standard error, which tabstore does not
/// own: raw on a terminal, not JSON under `--json`. So such a file is not handed to libpq
/// (it would read no password from it either), and a connection refused for want of a
/// password says why the file gave none.
struct RefusedPasswordFile: Sendable, Hashable {
    let path: String
    let problem: String

    /// The file libpq reads when no password is given (`passfile`, `PGPASSFILE`, else
    /// `~/.pgpass`), when libpq would refuse it; nil when it would read it or there is none.
    static func of(passfile: String?, password: String?) -> RefusedPasswordFile? {
        guard password?.isEmpty ?? true else { return nil }
        let path: String
        if let passfile, !passfile.isEmpty {
            path = passfile
        } else if let home = homeFolder() {
            path = home + "/.pgpass"
        } else {
            return nil
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        if status.st_mode & S_IFMT != S_IFREG {
            return RefusedPasswordFile(path: path, problem: "it is not a plain file")
        }
        if status.st_mode & (S_IRWXG | S_IRWXO) != 0 {
            return RefusedPasswordFile(path: path, problem: "others have access to it (permissions should be u=rw, 0600, or less)")
        }
        return nil
    }

    /// Where libpq is pointed instead: a path under the file, which cannot exist, so
    /// libpq reads nothing and says nothing.
    var passfileInstead: String { path + "/.not-read" }

    /// What a connection refused for want of a password adds.
    var reason: String { "the password file \(path) was not read: \(problem)" }

    private static func homeFolder() -> String? {
        if let home = getenv("HOME"), home.pointee != 0 { return String(cString: home) }
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }
}
