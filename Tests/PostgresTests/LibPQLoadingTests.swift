import Testing
import TabStoreKit
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
            == "a postgresql:// database needs libpq, which could not be loaded (/nonexistent: cannot open shared object file: No such file or directory); install it: apt-get install libpq5")
    }

    @Test func aLibraryWithoutLibpqsFunctionsNamesTheFirstMissing() {
        let error = thrownError { () throws(TabStoreError) in _ = try LibPQ.open("libsqlite3.so.0") }
        #expect(error == .postgresLibraryMissing(reason: "libsqlite3.so.0 lacks PQconnectdb"))
    }

    @Test func theSystemLibpqHasEveryFunction() throws {
        _ = try LibPQ.open("libpq.so.5")
        _ = try LibPQ.load()
    }
}
