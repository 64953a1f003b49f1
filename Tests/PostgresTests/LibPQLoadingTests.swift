import Testing
import TabStoreKit
import TabStoreTestSupport
@testable import TabStorePostgres

/// libpq is found at run time: a missing or wrong library is a clear error, not a crash.
/// The process loads its libpq once, so these open libraries of their own.
@Suite struct LibPQLoadingTests {
    @Test func theLibraryIsTabstoreLibpqWhenSetElseLibpqSo5() {
        #expect(LibPQ.libraryName(override: "/nonexistent") == "/nonexistent")
        #expect(LibPQ.libraryName(override: "") == "libpq.so.5")
        #expect(LibPQ.libraryName(override: nil) == "libpq.so.5")
    }

    @Test func aMissingLibraryIsPostgresLibraryMissingWithTheLoadersReason() {
        let error = thrownError { () throws(TabStoreError) in _ = try LibPQ.open("/nonexistent") }
        #expect(error == TabStoreError(.postgresLibraryMissing(reason: "/nonexistent: cannot open shared object file: No such file or directory")))
        #expect(error?.description
            == "a postgresql:// database needs libpq, which could not be loaded (/nonexistent: cannot open shared object file: No such file or directory); install it (apt-get install libpq5) or name it in TABSTORE_LIBPQ")
    }

    @Test func aLibraryWithoutLibpqsFunctionsNamesTheFirstMissing() {
        let error = thrownError { () throws(TabStoreError) in _ = try LibPQ.open("libsqlite3.so.0") }
        #expect(error == TabStoreError(.postgresLibraryMissing(reason: "libsqlite3.so.0 lacks PQconnectdb")))
    }

    @Test(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason))) func theSystemLibpqHasEveryFunction() throws {
        _ = try LibPQ.open("libpq.so.5")
        _ = try LibPQ.load()
    }
}

#if os(Linux)
import Foundation

/// `TABSTORE_LIBPQ` is read when the process first loads libpq, so it is tried in a child:
/// this test binary running this same test, which in the child checks the loading.
@Suite struct LibPQEnvironmentTests {
    static let isChild = ProcessInfo.processInfo.environment["TABSTORE_LIBPQ_TEST_CHILD"] == "1"

    @Test func tabstoreLibpqPointingNowhereIsPostgresLibraryMissing() throws {
        if Self.isChild {
            Self.loadingFollowsTabstoreLibpq()
            return
        }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", "LibPQEnvironmentTests"]
        var environment = ProcessInfo.processInfo.environment
        environment["TABSTORE_LIBPQ"] = "/nonexistent"
        environment["TABSTORE_LIBPQ_TEST_CHILD"] = "1"
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        child.standardError = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        #expect(child.terminationStatus == 0, "\(text)")
        #expect(text.contains("Test run with 1 test "), "\(text)")
    }

    /// What the child checks, in a process whose first load of libpq reads TABSTORE_LIBPQ.
    static func loadingFollowsTabstoreLibpq() {
        let missing = TabStoreError(.postgresLibraryMissing(reason: "/nonexistent: cannot open shared object file: No such file or directory"))
        #expect(thrownError { () throws(TabStoreError) in _ = try LibPQ.load() } == missing)
        // Every way in reports it, and asking again gives the same answer.
        #expect(thrownError { () throws(TabStoreError) in _ = try DatabaseURL("postgresql://h/db") } == missing)
        #expect(thrownError { () throws(TabStoreError) in _ = try PostgresConnection(url: "postgresql://u:pw@h/db") } == missing)
    }
}
#endif
