import Foundation
import Synchronization

/// A network link a test can cut: a namespace of its own, joined to this one by a veth
/// pair, each end with an address of a /30 of its own. A server started behind it
/// (`PostgresServer.start(behind:)`) is reached at `serverAddress`; `cut()` takes the link
/// down, so packets are lost as in a network partition (the kernel here has neither netem
/// nor iptables). Names carry the process id and a counter, so tests of other processes
/// running at the same time never meet them; `destroy()` (and the process's exit) removes them.
public final class NetworkLink: @unchecked Sendable {
    public let namespace: String
    /// This namespace's end of the pair.
    public let device: String
    public let serverAddress: String
    public let clientAddress: String

    private static let made = Mutex(0)
    private static let live = Mutex<[NetworkLink]>([])
    private static let cleanupRegistered: Bool = {
        atexit { for link in NetworkLink.live.withLock({ $0 }) { link.destroy() } }
        return true
    }()

    /// Why links cannot be made here (not root, no `ip`, no right to make namespaces, as
    /// in an unprivileged container), or nil when they can: found once, by making one.
    public static let unavailableReason: String? = {
        guard getuid() == 0 else { return "network namespaces need root" }
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") else { return "no /usr/sbin/ip (apt-get install iproute2)" }
        do {
            try NetworkLink().destroy()
            return nil
        } catch {
            return "cannot make a network namespace and veth pair here: \(error)"
        }
    }()

    public init() throws(PostgresServerError) {
        _ = Self.cleanupRegistered
        let number = Self.made.withLock { count in
            count += 1
            return count
        }
        let tag = "\(getpid() % 100_000)x\(number)"
        namespace = "tabstore-\(tag)"
        device = "tsv\(tag)a"
        let peer = "tsv\(tag)b"
        // A /30 of 10.128.0.0/9 no other link of this machine uses.
        let used = (try? Self.ip(["-o", "-4", "addr", "show"])) ?? ""
        var base = 0
        repeat {
            base = Int.random(in: 0..<(1 << 21)) * 4
        } while used.contains(Self.address(base + 1) + "/") || used.contains(Self.address(base + 2) + "/")
        clientAddress = Self.address(base + 1)
        serverAddress = Self.address(base + 2)
        Self.live.withLock { $0.append(self) }
        do {
            try Self.ip(["netns", "add", namespace])
            try Self.ip(["link", "add", device, "type", "veth", "peer", "name", peer])
            try Self.ip(["link", "set", peer, "netns", namespace])
            try Self.ip(["addr", "add", clientAddress + "/30", "dev", device])
            try Self.ip(["link", "set", device, "up"])
            try Self.ip(["-n", namespace, "addr", "add", serverAddress + "/30", "dev", peer])
            try Self.ip(["-n", namespace, "link", "set", peer, "up"])
            try Self.ip(["-n", namespace, "link", "set", "lo", "up"])
        } catch {
            destroy()
            throw error
        }
    }

    private static func address(_ offset: Int) -> String {
        "10.\(128 + (offset >> 16) & 127).\((offset >> 8) & 255).\(offset & 255)"
    }

    /// Takes the link down: nothing passes either way until `restore()`.
    public func cut() throws(PostgresServerError) {
        try Self.ip(["link", "set", device, "down"])
    }

    public func restore() throws(PostgresServerError) {
        try Self.ip(["link", "set", device, "up"])
    }

    /// Removes the pair and the namespace (a server still running in it should be stopped first).
    public func destroy() {
        _ = try? Self.ip(["link", "del", device])
        _ = try? Self.ip(["netns", "del", namespace])
        Self.live.withLock { $0.removeAll { $0 === self } }
    }

    @discardableResult
    private static func ip(_ arguments: [String]) throws(PostgresServerError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch { throw PostgresServerError("cannot run ip: \(error)") }
        let text = output.fileHandleForReading.readDataToEndOfFile()
        let problem = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PostgresServerError("ip \(arguments.joined(separator: " ")) failed: \(String(decoding: problem, as: UTF8.self))")
        }
        return String(decoding: text, as: UTF8.self)
    }
}
