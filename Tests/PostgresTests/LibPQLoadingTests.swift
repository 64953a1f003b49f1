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
        #expect(error == .postgresLibraryMissing(reason: "/nonexistent: cannot open shared object file: No such file or directory"))
        #expect(error?.description
            == "a postgresql:// database needs libpq, which could not be loaded (/nonexistent: cannot open shared object file: No such file or directory); install it (apt-get install libpq5) or name it in TABSTORE_LIBPQ")
    }

    @Test func aLibraryWithoutLibpqsFunctionsNamesTheFirstMissing() {
        let error = thrownError { () throws(TabStoreError) in _ = try LibPQ.open("libsqlite3.so.0") }
        #expect(error == .postgresLibraryMissing(reason: "libsqlite3.so.0 lacks PQconnectdb"))
    }

    @Test(.enabled(if: PostgresServer.shouldRun, Comment(rawValue: PostgresServer.skipReason))) func theSystemLibpqHasEveryFunction() throws {
        _ = try LibPQ.open("libpq.so.5")
        _ = try LibPQ.load()
    }
}

#if os(Linux)
import Foundation

/// `TABSTORE_LIBPQ` is read when the process first loads libpq, so it is tried in a child:
/// this test binary, running only `loadingInAChildFollowsTabstoreLibpq`.
@Suite struct LibPQEnvironmentTests {
    static let isChild = ProcessInfo.processInfo.environment["TABSTORE_LIBPQ_TEST_CHILD"] == "1"

    @Test(.enabled(if: !isChild, "runs in the parent only; its child runs loadingInAChildFollowsTabstoreLibpq")) func tabstoreLibpqPointingNowhereIsPostgresLibraryMissing() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", "loadingInAChildFollowsTabstoreLibpq"]
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

    @Test(.enabled(if: isChild, "runs only in the child that tabstoreLibpqPointingNowhereIsPostgresLibraryMissing starts")) func loadingInAChildFollowsTabstoreLibpq() {
        let missing = TabStoreError.postgresLibraryMissing(reason: "/nonexistent: cannot open shared object file: No such file or directory")
        #expect(thrownError { () throws(TabStoreError) in _ = try LibPQ.load() } == missing)
        // Every way in reports it, and asking again gives the same answer.
        #expect(thrownError { () throws(TabStoreError) in _ = try DatabaseURL("postgresql://h/db") } == missing)
        #expect(thrownError { () throws(TabStoreError) in _ = try PostgresConnection(url: "postgresql://u:pw@h/db") } == missing)
    }
}
#endif
