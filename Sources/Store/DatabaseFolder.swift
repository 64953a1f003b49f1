#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The mode of the folders the store makes for a database: only its owner may enter them,
/// as the `tabstore` command's own folders (tab sets are nobody else's business). An app's
/// extensions run as the same user, so they share them.
let databaseFolderMode: mode_t = 0o700

/// Why no file can have the name `path`, or nil: the system reads a name up to its first
/// NUL, so such a path would name another file, and an empty one names none (SQLite
/// would open a temporary database, gone at close).
func unusableFileName(_ path: String) -> String? {
    if path.isEmpty { return "the path is empty" }
    if path.utf8.contains(0) { return "the path holds a NUL character, which no file name can" }
    return nil
}

/// Makes the missing folders above a database file, like `mkdir -p`, each with
/// `databaseFolderMode`: an app's first launch may open a store where its container has no
/// `Application Support` folder yet. Nothing for `:memory:` or a bare file name.
///
/// - Throws: `TabStoreError.Code.cannotOpen` naming the folder that could not be made and why.
func createMissingFolders(above path: String) throws(TabStoreError) {
    // `new/` names a folder: making it, then failing to open a file there, would leave a
    // folder behind a refused open.
    if path.hasSuffix("/") { throw .cannotOpen(path: path, reason: "the path ends in /, so it names a folder, not a file") }
    guard path != ":memory:", let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return }
    let folder = String(path[..<slash])
    var status = stat()
    guard !folder.isEmpty, stat(folder, &status) != 0 else { return }
    var prefix = folder.hasPrefix("/") ? "/" : ""
    for component in folder.split(separator: "/") {
        prefix += component
        if mkdir(prefix, databaseFolderMode) != 0 && errno != EEXIST {
            let reason = errno == ENOTDIR
                ? "a part of its folder path is a file, not a folder"
                : "cannot create its folder \(prefix): \(String(cString: strerror(errno)))"
            throw .cannotOpen(path: path, reason: reason)
        }
        prefix += "/"
    }
}
