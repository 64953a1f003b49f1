import TabStoreCLI
import TabStoreKit
import TabStoreSQLite
import TabStoreTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Coverage-guided fuzz targets for what strangers hand tabstore: an import document, a
/// command line, a valid file whose rows another program damaged, and what devices hand a
/// sync server (SyncFuzzTargets.swift). Built with `-sanitize=fuzzer,address` (Tests/Fuzz/run.sh), libFuzzer
/// drives `LLVMFuzzerTestOneInput`; built plainly, `main` below replays files through the
/// same checks. A broken property ends the process with its name on stderr.
enum FuzzTarget: String {
    /// Bytes as an import document: read, checked, imported and exported again.
    case document
    /// Bytes as a command line (NUL between arguments), run against a small database.
    case commandLine = "command-line"
    /// Bytes as an extreme integer, the damage it goes into (`DamagedRows`), and a command
    /// line run on the damaged file.
    case damagedFile = "damaged-file"
    /// Bytes as each sync message's JSON, as a server reads what devices send it.
    case syncMessage = "sync-message"
    /// Bytes as a hostile device's pushes and pulls to a server an honest device syncs with.
    case syncServer = "sync-server"
    /// Bytes as a pending mutation in a device's file, written by another program.
    case syncLog = "sync-log"

    static let chosen: FuzzTarget = {
        let name = getenv("TABSTORE_FUZZ_TARGET").map { String(cString: $0) } ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            fail("set TABSTORE_FUZZ_TARGET to document, command-line, damaged-file, sync-message, sync-server or sync-log (it is \"\(name)\")")
        }
        return target
    }()

    func run(_ bytes: [UInt8]) {
        switch self {
        case .document: DocumentProperties.check(bytes)
        case .commandLine: CommandLineProperties.check(bytes)
        case .damagedFile: DamagedFileProperties.check(bytes)
        case .syncMessage: SyncMessageProperties.check(bytes)
        case .syncServer: SyncServerProperties.check(bytes)
        case .syncLog: SyncLogProperties.check(bytes)
        }
    }
}

func fail(_ property: String) -> Never {
    let line = "tabstore-fuzz: property broken: \(property)\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    abort()
}

/// Any bytes: either a one-sentence `invalidDocument` error, or a document that imports
/// into an empty store and exports as the same sets.
enum DocumentProperties {
    static func check(_ bytes: [UInt8]) {
        let document: TabStoreDocument
        do {
            document = try TabStoreDocument(json: bytes)
        } catch {
            guard case .invalidDocument = error else { fail("reading gave \(error), not invalidDocument") }
            checkSentence(error.description, what: "the reading error")
            return
        }
        // What reads must write back as text that reads as the same document.
        let text = document.json()
        guard let again = try? TabStoreDocument(json: Array(text.utf8)), again == document else {
            fail("a document read from the input does not read back from its own JSON")
        }
        let store: TabStore
        do { store = try TabStore.inMemory() } catch { fail("an in-memory store did not open: \(error)") }
        do {
            try store.importDocument(document)
        } catch {
            // A document that reads may still break a rule (a name twice, a bad title, ...).
            guard !error.isDatabaseProblem else { fail("import into memory failed as a database problem: \(error)") }
            checkSentence(error.description, what: "the import error")
            guard (try? store.tabSets())?.isEmpty == true else { fail("a refused import left sets behind") }
            return
        }
        guard let exported = try? store.export() else { fail("an imported store did not export") }
        let stored = exported.sets.map { [$0.name: $0.tabs] }
        let given = document.sets.map { [$0.name: $0.tabs] }
        guard stored.sorted(by: { $0.keys.first! < $1.keys.first! }) == given.sorted(by: { $0.keys.first! < $1.keys.first! }) else {
            fail("the export of an import has other sets or tabs than the document")
        }
    }
}

/// Any command line, against a fresh small database: a documented exit code; on failure
/// one line on standard error; output with no raw control or format character but newlines
/// (and joiners, which text keeps between emoji).
enum CommandLineProperties {
    static let folder: String = {
        var template = Array("/tmp/tabstore-fuzz-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { fail("no temporary folder: errno \(errno)") }
        return String(cString: made)
    }()
    static let pristine: [UInt8] = {
        // `DamagedRows`' fixture: set "s" (a, b, c, d; b selected; e removed), set "o" (x, y).
        let path = folder + "/pristine.db"
        do {
            let store = try TabStore(path: path)
            try store.add(["a", "b", "c", "d", "e"], to: "s", creatingSet: true)
            try store.select(.title("b"), in: "s")
            try store.remove([.title("e")], from: "s")
            try store.add(["x", "y"], to: "o", creatingSet: true)
        } catch {
            fail("the fuzz database was not made: \(error)")
        }
        return readFile(path)
    }()

    static func check(_ bytes: [UInt8]) {
        let database = folder + "/fuzz.db"
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(database + suffix) }
        writeFile(database, pristine)
        run(bytes[...], on: database)
    }

    /// Runs the command line `bytes` spell on the database at `path`, checking its outcome.
    static func run(_ bytes: ArraySlice<UInt8>, on database: String) {
        let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
        // `watch` runs until a signal: its start is covered, its loop is not.
        guard arguments.count <= 12, !arguments.contains(Array("watch".utf8)) else { return }
        var raw = RawArguments(arguments: [], firstInvalidPosition: nil)
        for (position, argument) in arguments.enumerated() {
            if let text = String(validating: argument, as: UTF8.self) {
                raw.arguments.append(text)
            } else {
                raw.arguments.append(String(decoding: argument, as: UTF8.self))
                if raw.firstInvalidPosition == nil { raw.firstInvalidPosition = position + 1 }
            }
        }
        let environment = Environment.fixed(["TABSTORE_DB": database, "HOME": folder, "NO_COLOR": "1"])
        let result = Runner.run(raw, environment: environment, servers: .handedOver(toCompanion: "tabstore-postgres"))
        guard [0, 1, 2, 3, 4].contains(result.exitCode) else { fail("exit code \(result.exitCode) is not documented") }
        if result.exitCode != 0 {
            guard result.standardError.hasPrefix("tabstore: ") || result.json else {
                fail("a failure's standard error does not start with 'tabstore: ' (\(result.standardError.debugDescription))")
            }
        }
        for (name, text) in [("standard output", result.standardOutput), ("standard error", result.standardError)] {
            // Text escapes a joiner only outside emoji and joining scripts; JSON escapes it always.
            let hidden = text.unicodeScalars.first { scalar in
                switch scalar.properties.generalCategory {
                case .control: scalar != "\n"
                case .format: scalar != "\u{200C}" && scalar != "\u{200D}"
                case .lineSeparator, .paragraphSeparator: true
                default: false
                }
            }
            if let hidden {
                fail("\(name) holds the raw character U+\(String(hidden.value, radix: 16, uppercase: true))")
            }
        }
    }
}

/// The first 8 bytes are an integer (little-endian) and the next one picks what holds it
/// (or a damage of the selection or the positions); the rest is a command line, run on
/// the fixture so damaged. Whatever the rows hold, the command ends as on any file.
enum DamagedFileProperties {
    static func check(_ bytes: [UInt8]) {
        guard bytes.count >= 9 else { return }
        let value = bytes[0..<8].reversed().reduce(0) { ($0 << 8) | Int($1) }
        let damages = DamagedRows.structural + DamagedRows.extreme(value)
        let damage = damages[Int(bytes[8]) % damages.count]
        let database = CommandLineProperties.folder + "/damaged.db"
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(database + suffix) }
        writeFile(database, CommandLineProperties.pristine)
        var handle: OpaquePointer?
        guard sqlite3_open(database, &handle) == SQLITE_OK else { fail("the fixture did not open") }
        guard sqlite3_exec(handle, damage.sql, nil, nil, nil) == SQLITE_OK else {
            fail("the damage \(damage.name) was not made: \(String(cString: sqlite3_errmsg(handle)))")
        }
        sqlite3_close(handle)
        CommandLineProperties.run(bytes[9...], on: database)
    }
}

func checkSentence(_ message: String, what: String) {
    guard !message.isEmpty, !message.contains("\n") else { fail("\(what) is not one line: \(message.debugDescription)") }
}

func readFile(_ path: String) -> [UInt8] {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { fail("cannot read \(path): errno \(errno)") }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { break }
        bytes += buffer[0..<count]
    }
    return bytes
}

func writeFile(_ path: String, _ bytes: [UInt8]) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0, bytes.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else {
        fail("cannot write \(path): errno \(errno)")
    }
    close(descriptor)
}

#if TABSTORE_FUZZING
/// libFuzzer's driver (libclang_rt.fuzzer_no_main), started from this target's own `main`.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif

/// Built for libFuzzer: hands the command line to its driver. Built plainly: replays the
/// files it is given (a corpus, a crash libFuzzer saved) through the target's checks.
@main
enum FuzzMain {
    static func main() {
        #if TABSTORE_FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            FuzzTarget.chosen.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
            return 0
        })
        #else
        for path in CommandLine.arguments.dropFirst() {
            FuzzTarget.chosen.run(readFile(path))
        }
        #endif
    }
}
