#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import Testing
import TabStoreKit
import TabStoreTestSupport
@testable import TabStorePostgres

/// A database URL is checked by libpq and shown without its password, wherever it was written.
@Suite struct DatabaseURLTests {
    /// Parsing is libpq's: where PostgreSQL is (or must be) there, so is libpq.
    static let needsLibpq = PostgresServer.shouldRun

    /// Both schemes, in any case, and a near miss without `//` (refused later as a URL, so
    /// that it never becomes a file path with a password in its folder names).
    @Test func isPostgresTakesBothSchemesInAnyCaseAndNearMisses() {
        #expect(DatabaseURL.isPostgres("postgresql://h/db"))
        #expect(DatabaseURL.isPostgres("postgres://h/db"))
        #expect(DatabaseURL.isPostgres("POSTGRESQL://h/db"))
        #expect(DatabaseURL.isPostgres("Postgres:/h/db"))
        #expect(!DatabaseURL.isPostgres("/tmp/postgresql://x"))
        #expect(!DatabaseURL.isPostgres("tabs.db"))
        #expect(!DatabaseURL.isPostgres("postgresql.db"))
    }

    @Test func theShownURLLeavesOutThePasswordWhereverItIs() {
        #expect(DatabaseURL.withoutPassword("postgresql://user:secret@host:5432/db") == "postgresql://user@host:5432/db")
        #expect(DatabaseURL.withoutPassword("postgresql://user@host/db?password=secret&sslmode=disable")
            == "postgresql://user@host/db?sslmode=disable")
        #expect(DatabaseURL.withoutPassword("postgresql://host/db?pass%77ord=secret") == "postgresql://host/db")
        #expect(DatabaseURL.withoutPassword("postgresql://u:p%40ss@host/db?sslpassword=x&application_name=a")
            == "postgresql://u@host/db?application_name=a")
        // A name that cannot be decoded might be "password": it goes too.
        #expect(DatabaseURL.withoutPassword("postgres://h/db?pass%zzword=secret&a=b") == "postgres://h/db?a=b")
        #expect(DatabaseURL.withoutPassword("postgresql://h:5/db") == "postgresql://h:5/db")
    }

    @Test(.enabled(if: Self.needsLibpq, Comment(rawValue: PostgresServer.skipReason))) func theServerIsNamedFromTheParsedPartsWithoutAnyPassword() throws {
        let url = try DatabaseURL("postgresql://user:secret@host:5433/db?password=other")
        #expect(url.server == "postgresql://user@host:5433/db")
        #expect(url.text == "postgresql://user:secret@host:5433/db?password=other")
        #expect(try DatabaseURL("postgres://a%40b:x%2Fy@[::1]:7/my%20db").server == "postgresql://a%40b@[::1]:7/my%20db")
        #expect(try DatabaseURL("postgresql:///db?host=/run/pg&port=6000&user=u").server == "postgresql://u@%2Frun%2Fpg:6000/db")
        #expect(try DatabaseURL("postgresql://u@h1:1,h2:2/db").server == "postgresql://u@h1:1,h2:2/db")
    }

    @Test(.enabled(if: Self.needsLibpq, Comment(rawValue: PostgresServer.skipReason))) func libpqsDefaultsFillWhatTheURLLeavesOut() throws {
        // No environment variable of libpq's is set here: the defaults are the OS user,
        // a database of that name, port 5432, and the default host (left empty).
        let user = String(cString: getpwuid(geteuid())!.pointee.pw_name)
        #expect(try DatabaseURL("postgresql://h").server == "postgresql://\(user)@h:5432/\(user)")
        #expect(try DatabaseURL("postgresql://").server == "postgresql://\(user)@:5432/\(user)")
    }

    @Test(.enabled(if: Self.needsLibpq, Comment(rawValue: PostgresServer.skipReason))) func aMalformedURLIsRefusedWithLibpqsReasonAndNoPassword() {
        let cases: [(String, TabStoreError)] = [
            ("postgresql://u:se%zzcret@h/db", TabStoreError(.invalidDatabaseURL(url: "postgresql://u@h/db", reason: "invalid percent-encoded token: \"<password>\""))),
            ("postgresql://h/db?password=s%zz", TabStoreError(.invalidDatabaseURL(url: "postgresql://h/db", reason: "invalid percent-encoded token: \"<password>\""))),
            ("postgresql://h/db?nosuch=1", TabStoreError(.invalidDatabaseURL(url: "postgresql://h/db?nosuch=1", reason: "invalid URI query parameter: \"nosuch\""))),
            ("postgresql://h/db?x", TabStoreError(.invalidDatabaseURL(url: "postgresql://h/db?x", reason: "missing key/value separator \"=\" in URI query parameter: \"x\""))),
            ("postgresql://[::1", TabStoreError(.invalidDatabaseURL(url: "postgresql://[::1",
                                                      reason: "end of string reached when looking for matching \"]\" in IPv6 host address in URI: \"postgresql://[::1\""))),
            ("mysql://h/db", TabStoreError(.invalidDatabaseURL(url: "mysql://h/db", reason: "it does not start with postgresql:// or postgres://"))),
        ]
        for (text, expected) in cases {
            #expect(thrownError { () throws(TabStoreError) in _ = try DatabaseURL(text) } == expected, "\(text)")
        }
    }

    /// A scheme without `//` is quoted back as typed, less the password: `u` is the user.
    @Test func aURLWithoutSlashesIsQuotedAsTypedWithoutItsPassword() {
        let error = thrownError { () throws(TabStoreError) in _ = try DatabaseURL("postgres:u:pw@host/db") }
        #expect(error == TabStoreError(.invalidDatabaseURL(url: "postgres:u@host/db", reason: "it does not start with postgresql:// or postgres://")))
        #expect(DatabaseURL.withoutPassword("POSTGRESQL:me:secret@h/db?password=x") == "POSTGRESQL:me@h/db")
    }

    /// A service's server is in its file: until connected, the service is what is named.
    @Test(.enabled(if: Self.needsLibpq, Comment(rawValue: PostgresServer.skipReason))) func anUnknownServiceIsNamedNotAMadeUpServer() throws {
        let url = try DatabaseURL("postgresql:///db?service=nosuch")
        #expect(url.server == "postgresql service \"nosuch\"")
        #expect(thrownError { () throws(TabStoreError) in _ = try PostgresConnection(url: url) }
            == TabStoreError(.serverUnavailable(server: "postgresql service \"nosuch\"", reason: "definition of service \"nosuch\" not found")))
    }

    @Test(.enabled(if: Self.needsLibpq, Comment(rawValue: PostgresServer.skipReason))) func aLockTimeoutInTheOptionsIsTheBusyTimeout() throws {
        #expect(try DatabaseURL("postgresql://h/db?options=-clock_timeout%3D500").lockTimeout == .milliseconds(500))
        #expect(try DatabaseURL("postgresql://h/db?options=-c%20lock_timeout%3D2s").lockTimeout == .seconds(2))
        #expect(try DatabaseURL("postgresql://h/db?options=--lock-timeout%3D1min").lockTimeout == .seconds(60))
        #expect(try DatabaseURL("postgresql://h/db?options=-clock_timeout%3Dsoon").lockTimeout == nil)
        #expect(try DatabaseURL("postgresql://h/db").lockTimeout == nil)
    }

    @Test func secretsInsideLibpqsQuotesAreHidden() {
        #expect(hidingSecrets("invalid URI: \"postgresql://u:hunter2@h\"", ["hunter2"]) == "invalid URI: \"postgresql://u:<password>@h\"")
        #expect(hidingSecrets("no secret here: \"x\"", ["hunter2"]) == "no secret here: \"x\"")
        #expect(hidingSecrets("unquoted hunter2 text", ["hunter2"]) == "libpq refused it (its message quotes the password)")
    }
}

/// The error `body` threw, or nil.
func thrownError<Failure: Error>(_ body: () throws(Failure) -> Void) -> Failure? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}
