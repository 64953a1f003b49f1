#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TabStoreProcessArguments

/// The argument vector the system passed to the program, program name first.
enum ProcessArguments {
    /// `argc`, `argv`: as the C library handed them to initialisers, which needs no file
    /// descriptor; else the Swift runtime's (which, in a static executable, could not
    /// read /proc/self/cmdline when it sees none).
    static var vector: (count: Int, arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) {
        if let arguments = tabstore_process_arguments(), tabstore_process_argument_count() > 0 {
            return (Int(tabstore_process_argument_count()), arguments)
        }
        return (Int(CommandLine.argc), CommandLine.unsafeArgv)
    }
}

/// The process arguments (program name excluded), checked to be UTF-8.
///
/// `CommandLine.arguments` silently repairs bad bytes; a title or set name must never
/// be stored repaired, so argv is read raw and the first bad argument is reported.
package struct RawArguments: Sendable, Equatable {
    /// Every argument; invalid bytes replaced with U+FFFD (only used to report the error).
    package var arguments: [String]
    /// 1-based position of the first argument that is not valid UTF-8.
    package var firstInvalidPosition: Int?

    package init(arguments: [String], firstInvalidPosition: Int?) {
        self.arguments = arguments
        self.firstInvalidPosition = firstInvalidPosition
    }

    static func fromProcess() -> RawArguments {
        var raw = RawArguments(arguments: [], firstInvalidPosition: nil)
        let (count, vector) = ProcessArguments.vector
        for position in stride(from: 1, to: count, by: 1) {
            guard let pointer = vector[position] else { continue }
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
        return raw
    }
}
