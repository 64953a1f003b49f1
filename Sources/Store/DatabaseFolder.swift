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
    // The system's limits, said before anything is made (SQLite would only say it cannot open).
    let bytes = path.utf8.count
    if bytes >= Int(PATH_MAX) { return "the path is \(bytes) bytes long, more than the \(Int(PATH_MAX) - 1) the system takes" }
    if let long = path.utf8.split(separator: UInt8(ascii: "/")).first(where: { $0.count > Int(NAME_MAX) }) {
        return "a name in the path is \(long.count) bytes long, more than the \(Int(NAME_MAX)) a file or folder name can have"
    }
    return nil
}

/// Makes the missing folders above a database file, like `mkdir -p`, each with
/// `databaseFolderMode`: an app's first launch may open a store where its container has no
/// `Application Support` folder yet. Nothing for `:memory:` or a bare file name.
///
/// - Returns: the folders made, outermost first, for `removeFolders(_:)` should the open fail.
/// - Throws: `TabStoreError.Code.cannotOpen` naming the folder that could not be made and
///   why; the folders made before it are removed.
func createMissingFolders(above path: String) throws(TabStoreError) -> [String] {
    // `new/` names a folder: making it, then failing to open a file there, would leave a
    // folder behind a refused open.
    if path.hasSuffix("/") { throw TabStoreError(.cannotOpen(path: path, reason: "the path ends in /, so it names a folder, not a file")) }
    guard path != ":memory:", let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return [] }
    let folder = String(path[..<slash])
    var status = stat()
    guard !folder.isEmpty, stat(folder, &status) != 0 else { return [] }
    var made: [String] = []
    var prefix = folder.hasPrefix("/") ? "/" : ""
    for component in folder.split(separator: "/") {
        prefix += component
        if mkdir(prefix, databaseFolderMode) == 0 {
            made.append(prefix)
        } else if errno != EEXIST {
            let reason = errno == ENOTDIR
                ? "a part of its folder path is a file, not a folder"
                : "cannot create its folder \(prefix): \(String(cString: strerror(errno)))"
            removeFolders(made)
            throw TabStoreError(.cannotOpen(path: path, reason: reason))
        }
        prefix += "/"
    }
    return made
}

/// Removes folders `createMissingFolders(above:)` made, innermost first: a refused open
/// leaves none behind. Each is empty, as nothing was made in it; one that is not stays.
func removeFolders(_ made: [String]) {
    for folder in made.reversed() { rmdir(folder) }
}
