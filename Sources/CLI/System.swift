import Synchronization
import TabStoreKit
// The few POSIX calls the CLI needs, without Foundation: start-up time is the product.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads process environment variables.
package struct Environment: Sendable {
    /// A variable's bytes, `nil` when it is not set.
    let bytes: @Sendable (String) -> [UInt8]?

    /// A variable's value, `nil` when it is not set; bytes that are not UTF-8 read as U+FFFD.
    func value(_ name: String) -> String? {
        bytes(name).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether a variable is set to bytes that are not UTF-8. Its `value` then names
    /// something else: two paths that differ only in such bytes read as the same text.
    func isNotUTF8(_ name: String) -> Bool {
        bytes(name).map { String(validating: $0, as: UTF8.self) == nil } ?? false
    }

    static let process = Environment { name in
        getenv(name).map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
    }

    /// A fixed environment, for tests; `bytes` sets variables to bytes that need not be UTF-8.
    package static func fixed(_ variables: [String: String], bytes: [String: [UInt8]] = [:]) -> Environment {
        Environment { name in bytes[name] ?? variables[name].map { Array($0.utf8) } }
    }
}

/// The text of the C library's message for `code` ("No such file or directory").
func errorMessage(_ code: Int32) -> String {
    String(cString: strerror(code))
}

/// Writes all of `bytes` to standard output or standard error, retrying partial and
/// interrupted writes. A stream the parent left non-blocking (a shared pipe or terminal
/// another program set O_NONBLOCK on) refuses a write with EAGAIN while its reader is
/// behind: the write waits until it can go on instead of failing.
/// - Returns: `nil` when every byte was written, else the `errno` of the failed write.
func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
    var remaining = bytes[...]
    while !remaining.isEmpty {
        let written = remaining.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written > 0 {
            remaining = remaining.dropFirst(written)
            continue
        }
        if written == 0 { return ENOSPC }
        switch errno {
        case EINTR: continue
        case EAGAIN, EWOULDBLOCK:
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            if poll(&ready, 1, -1) < 0 && errno != EINTR { return errno }
        case let code: return code
        }
    }
    return nil
}

/// Keeps descriptors 0, 1 and 2 taken: when the parent closed one (`>&-`), the next file
/// this process opens (a database, a backup) would get its number and receive what is
/// printed. /dev/null opened read-only takes the place, so writing there fails (EBADF)
/// and is reported instead of landing in a file.
func reserveStandardDescriptors() {
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
        if descriptor == STDIN_FILENO { standardInputWasClosed.store(true, ordering: .relaxed) }
        let placeholder = open("/dev/null", O_RDONLY)
        if placeholder >= 0 && placeholder != descriptor {
            dup2(placeholder, descriptor)
            close(placeholder)
        }
    }
}

/// Whether the process started with standard input closed (`<&-`): reading it is then
/// an error (EBADF), not the empty text of the placeholder that holds its number.
let standardInputWasClosed = Atomic<Bool>(false)

/// All bytes of the file at `path`, or of standard input when `path` is `-`.
/// - Throws: the `errno` of the failed call.
/// More than `limit` bytes is an error (EFBIG): `import /dev/zero` must end, not eat memory.
func readAllBytes(path: String, limit: Int) throws(SystemError) -> [UInt8] {
    if path == "-" && standardInputWasClosed.load(ordering: .relaxed) { throw SystemError(code: EBADF) }
    let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY)
    guard descriptor >= 0 else { throw SystemError(code: errno) }
    defer { if descriptor != STDIN_FILENO { close(descriptor) } }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count >= 0 else { throw SystemError(code: errno) }
        if count == 0 { return bytes }
        guard bytes.count + count <= limit else { throw SystemError(code: EFBIG) }
        // Growing copies into a block twice as large, while the old one is still held.
        if bytes.count + count > bytes.capacity, !memoryIsAvailable(3 * (bytes.count + count)) { throw SystemError(code: ENOMEM) }
        bytes += chunk.prefix(count)
    }
}

/// Whether `bytes` of memory can be had now. Swift ends the process when an allocation
/// fails, so work whose size follows its input (an import of a large document) asks
/// first, and a memory limit (`ulimit -v`) is then an error, not a crash. The block is
/// only mapped, never touched: without a limit this costs no memory. (mmap, not malloc:
/// the optimiser removes a malloc that is freed unused, and its answer with it.)
func memoryIsAvailable(_ bytes: Int) -> Bool {
    let size = max(bytes, 1)
    guard let block = mmap(nil, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
          block != MAP_FAILED else { return false }
    munmap(block, size)
    return true
}

struct SystemError: Error {
    let code: Int32

    /// Past the limit `readAllBytes` was given.
    var isOverLimit: Bool { code == EFBIG }

    /// No memory could be had to hold what was read.
    var isOutOfMemory: Bool { code == ENOMEM }
}

/// Whether `descriptor` is a terminal (not a file or a pipe).
func isTerminal(_ descriptor: Int32) -> Bool {
    isatty(descriptor) == 1
}

/// The terminal's width in columns, or `nil` when `descriptor` is not a terminal or
/// the terminal does not say (a fresh pseudo-terminal reports 0).
func terminalColumns(_ descriptor: Int32) -> Int? {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
}
