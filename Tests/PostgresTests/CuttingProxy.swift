#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import Foundation
import Synchronization
import TabStoreTestSupport

/// A TCP proxy in front of a PostgreSQL server that reads the protocol and cuts a
/// connection at one request: the Nth one through it (a pipeline up to its Sync, or a
/// simple query), counted over every connection from when it was armed. Before forwarding,
/// the server never gets the request; after, the server runs it and its whole answer is
/// dropped. Either way both sides are closed at once, and new connections pass again: a
/// server that went away and came back within a client's failover window.
final class CuttingProxy: @unchecked Sendable {
    enum Cut: Sendable, CaseIterable {
        case beforeForwarding, afterForwarding
    }

    let port: Int
    private let serverPort: Int
    private let listener: Int32
    private struct State {
        var requests = 0
        var cut: (request: Int, how: Cut)?
        var cutsMade = 0
    }

    private let state = Mutex(State())

    init(serverPort: Int) throws {
        self.serverPort = serverPort
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ProxyError("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw ProxyError("bind/listen: errno \(errno)")
        }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = descriptor
        let thread = Thread { [weak self, descriptor] in
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else { return }
                guard let self else {
                    close(client)
                    return
                }
                let relay = Thread { self.relay(client) }
                relay.start()
            }
        }
        thread.start()
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// The URL of `database` through the proxy.
    func url(database: String) -> String {
        "postgresql://postgres@127.0.0.1:\(port)/\(database)"
    }

    /// Counts requests from 0 again, and cuts at `request` (nil: never).
    func arm(cutAt request: Int?, _ how: Cut = .beforeForwarding) {
        state.withLock { state in
            state.requests = 0
            state.cut = request.map { ($0, how) }
        }
    }

    /// Requests seen since armed.
    var requests: Int { state.withLock { $0.requests } }
    /// Connections cut since the proxy started.
    var cutsMade: Int { state.withLock { $0.cutsMade } }

    /// What to do with a request that just ended: forward it, or cut before or after.
    private func decide() -> Cut? {
        state.withLock { state in
            defer { state.requests += 1 }
            guard let cut = state.cut, cut.request == state.requests else { return nil }
            state.cut = nil
            state.cutsMade += 1
            return cut.how
        }
    }

    private func relay(_ client: Int32) {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(serverPort).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        defer {
            close(client)
            close(server)
        }
        guard connected == 0 else { return }
        var fromClient: [UInt8] = [], fromServer: [UInt8] = []
        var request: [UInt8] = []
        var typed = false
        var singleByteAnswers = 0
        // After a cut after forwarding: the answers still to drop (one per ReadyForQuery).
        var dropping = false
        var descriptors = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: server, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            guard poll(&descriptors, 2, 10_000) >= 0 || errno == EINTR else { return }
            for (index, descriptor) in descriptors.enumerated() where descriptor.revents != 0 {
                let count = read(descriptor.fd, &buffer, buffer.count)
                guard count > 0 else { return }
                if index == 0 { fromClient += buffer[0..<count] } else { fromServer += buffer[0..<count] }
            }
            // The client's messages: untyped at first (SSL and GSS requests, the startup packet).
            while true {
                if !typed {
                    guard fromClient.count >= 8 else { break }
                    let length = Int(Self.int32(fromClient, 0)), code = Self.int32(fromClient, 4)
                    guard fromClient.count >= length else { break }
                    if length == 8, code == 80_877_103 || code == 80_877_104 {
                        singleByteAnswers += 1
                    } else {
                        typed = true
                    }
                    guard send(server, Array(fromClient[0..<length])) else { return }
                    fromClient.removeFirst(length)
                    continue
                }
                guard fromClient.count >= 5 else { break }
                let length = 1 + Int(Self.int32(fromClient, 1))
                guard fromClient.count >= length else { break }
                let message = Array(fromClient[0..<length])
                fromClient.removeFirst(length)
                switch message[0] {
                case UInt8(ascii: "S"), UInt8(ascii: "Q"):
                    request += message
                    switch decide() {
                    case .beforeForwarding?:
                        return
                    case .afterForwarding?:
                        guard send(server, request) else { return }
                        dropping = true
                    case nil:
                        guard send(server, request) else { return }
                    }
                    request = []
                case UInt8(ascii: "P"), UInt8(ascii: "B"), UInt8(ascii: "E"), UInt8(ascii: "D"), UInt8(ascii: "C"), UInt8(ascii: "H"), UInt8(ascii: "F"):
                    request += message
                default:
                    guard send(server, request + message) else { return }
                    request = []
                }
            }
            // The server's messages, passed on whole, or dropped up to the cut request's end.
            while true {
                if singleByteAnswers > 0 {
                    guard !fromServer.isEmpty else { break }
                    guard send(client, [fromServer.removeFirst()]) else { return }
                    singleByteAnswers -= 1
                    continue
                }
                guard fromServer.count >= 5 else { break }
                let length = 1 + Int(Self.int32(fromServer, 1))
                guard fromServer.count >= length else { break }
                let message = Array(fromServer[0..<length])
                fromServer.removeFirst(length)
                if dropping {
                    if message[0] == UInt8(ascii: "Z") { return }
                } else {
                    guard send(client, message) else { return }
                }
            }
        }
    }

    private static func int32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    private func send(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }
}

struct ProxyError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
