#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process arguments (program name excluded), checked to be UTF-8.
///
/// `CommandLine.arguments` silently repairs bad bytes; a title or set name must never
/// be stored repaired, so argv is read raw and the first bad argument is reported.
struct RawArguments: Sendable, Equatable {
    /// Every argument; invalid bytes replaced with U+FFFD (only used to report the error).
    var arguments: [String]
    /// 1-based position of the first argument that is not valid UTF-8.
    var firstInvalidPosition: Int?

    static func fromProcess() -> RawArguments {
        var raw = RawArguments(arguments: [], firstInvalidPosition: nil)
        for position in stride(from: 1, to: Int(CommandLine.argc), by: 1) {
            guard let pointer = CommandLine.unsafeArgv[position] else { continue }
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)
            )
            if let text = String(validating: bytes, as: UTF8.self) {
                raw.arguments.append(text)
            } else {
                raw.arguments.append(String(decoding: bytes, as: UTF8.self))
                if raw.firstInvalidPosition == nil { raw.firstInvalidPosition = position }
            }
        }
        // Read: no password needs to stay in the process table.
        PasswordHiding.hidePasswordsInProcessArguments()
        return raw
    }
}
