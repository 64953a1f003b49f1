import TabStoreKit
import TabStoreLibPQ

/// libpq's functions, found with dlopen the first time a PostgreSQL database is used.
///
/// Nothing links libpq: a machine without it still runs tabstore on files. The library is
/// `$TABSTORE_LIBPQ` when set (a path), else `libpq.so.5` (`libpq.5.dylib` on Darwin).
package struct LibPQ: @unchecked Sendable {
    /// The function table; its pointers stay valid for the life of the process.
    package let functions: tabstore_pq_functions

    /// The process's libpq, loaded once; every later call returns the same outcome.
    ///
    /// - Throws: `TabStoreError.Code.postgresLibraryMissing` with the loader's reason.
    package static func load() throws(TabStoreError) -> LibPQ {
        try loaded.get()
    }

    private static let loaded: Result<LibPQ, TabStoreError> = {
        if let message = tabstore_pq_load() {
            return .failure(TabStoreError(.postgresLibraryMissing(reason: String(cString: message))))
        }
        return .success(LibPQ(functions: tabstore_pq_loaded().pointee))
    }()

    /// Opens the library called `name` now, apart from the process's one: tests use it to
    /// see what a missing or wrong library gives without changing the process's environment.
    package static func open(_ name: String) throws(TabStoreError) -> LibPQ {
        var functions = tabstore_pq_functions?.none
        let reason = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 1024) { message -> String? in
            let table = UnsafeMutablePointer<tabstore_pq_functions>.allocate(capacity: 1)
            defer { table.deallocate() }
            guard tabstore_pq_open(name, table, message.baseAddress, message.count) == 1 else {
                return String(cString: message.baseAddress!)
            }
            functions = table.pointee
            return nil
        }
        guard let functions else { throw TabStoreError(.postgresLibraryMissing(reason: reason ?? "dlopen failed")) }
        return LibPQ(functions: functions)
    }

    /// The library the process loads when `TABSTORE_LIBPQ` holds `override`.
    package static func libraryName(override: String?) -> String {
        String(cString: tabstore_pq_library_name(override))
    }
}
