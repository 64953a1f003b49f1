#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// A fake PostgreSQL server on 127.0.0.1 that completes each login and, in the same write,
/// sends a FATAL and hangs up: a server dying the moment a connection is made, which libpq
/// parses as a notice inside the connect itself.
public final class DyingServer: @unchecked Sendable {
    public let port: Int
    private let listener: Int32

    public init() throws(PostgresServerError) {
        let (listener, port) = try boundLoopbackSocket()
        guard listen(listener, 16) == 0 else {
            close(listener)
            throw PostgresServerError("cannot listen on 127.0.0.1: errno \(errno)")
        }
        self.listener = listener
        self.port = port
        DispatchQueue.global().async { [listener] in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                Self.serve(client)
                close(client)
            }
        }
    }

    deinit {
        // Ends the accepting thread's accept().
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Answers an SSL or GSS request with "no", reads the startup packet, then sends a whole
    /// login and the FATAL in one write.
    private static func serve(_ client: Int32) {
        while true {
            guard let header = receive(client, 8) else { return }
            let length = Int(UInt32(bigEndian: header.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }))
            let code = UInt32(bigEndian: header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self) })
            // SSLRequest and GSSENCRequest: refused, and the client goes on in plain text.
            if length == 8, code == 80_877_103 || code == 80_877_104 {
                _ = [UInt8(ascii: "N")].withUnsafeBytes { write(client, $0.baseAddress, 1) }
                continue
            }
            guard length >= 8, receive(client, length - 8) != nil else { return }
            break
        }
        var reply: [UInt8] = []
        func message(_ type: Character, _ body: [UInt8]) {
            reply.append(UInt8(ascii: type.unicodeScalars.first!))
            reply += withUnsafeBytes(of: UInt32(body.count + 4).bigEndian, Array.init)
            reply += body
        }
        func text(_ string: String) -> [UInt8] { Array(string.utf8) + [0] }
        message("R", withUnsafeBytes(of: UInt32(0).bigEndian, Array.init))
        for (name, value) in [("server_version", "15.0"), ("server_encoding", "UTF8"), ("client_encoding", "UTF8"),
                              ("in_hot_standby", "off"), ("default_transaction_read_only", "off"),
                              ("integer_datetimes", "on"), ("standard_conforming_strings", "on")] {
            message("S", text(name) + text(value))
        }
        message("K", withUnsafeBytes(of: UInt32(4242).bigEndian, Array.init) + withUnsafeBytes(of: UInt32(1).bigEndian, Array.init))
        message("Z", [UInt8(ascii: "I")])
        message("E", [UInt8(ascii: "S")] + text("FATAL") + [UInt8(ascii: "V")] + text("FATAL") + [UInt8(ascii: "C")] + text("57P01")
            + [UInt8(ascii: "M")] + text("terminating connection due to unexpected postmaster exit") + [0])
        _ = reply.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
    }

    /// Exactly `count` bytes, or nil at the end of the stream.
    private static func receive(_ descriptor: Int32, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + done, count - done) }
            guard got > 0 else { return nil }
            done += got
        }
        return bytes
    }
}
