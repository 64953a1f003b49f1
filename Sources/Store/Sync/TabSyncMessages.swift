/// The messages of sync (<doc:OfflineSync>): plain `Codable` values, so that an app's own backend
/// can carry them (as JSON over HTTPS, say) to a server store and hand them to
/// ``TabStore/push(_:)-696g7`` and ``TabStore/pull(_:)-5qpun`` there. Each has a `version`: a side
/// refuses a version it does not read (``TabStoreError/Code/syncVersionNotSupported``).
public enum TabSyncFormat {
    /// The version of the messages this library writes.
    public static let version = 1
    /// The versions this library reads: a message of another is refused
    /// (``TabStoreError/Code/syncVersionNotSupported``), the error listing these, so that a
    /// newer device learns what a server speaks.
    public static let readableVersions = [1]
}

/// A device's pending mutations, oldest first, numbered 1, 2, 3... by the device.
public struct TabSyncPush: Sendable, Hashable, Codable {
    public var version: Int
    /// The device's id (``TabSyncStatus/device``).
    public var device: String
    public var mutations: [Numbered]

    /// A mutation with the number its device gave it.
    public struct Numbered: Sendable, Hashable, Codable {
        public var number: Int
        public var mutation: TabMutation

        public init(number: Int, mutation: TabMutation) {
            self.number = number
            self.mutation = mutation
        }

        /// A mutation this library cannot read (an unknown kind, a field missing) decodes as
        /// `.unreadable`, so that a server refuses that mutation alone, not the push: a
        /// push refused whole would hold back the device's later mutations for ever.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            number = try container.decode(Int.self, forKey: .number)
            let kinds = try container.nestedContainer(keyedBy: MutationKind.self, forKey: .mutation).allKeys
            guard kinds.count == 1 else {
                mutation = try container.decode(TabMutation.self, forKey: .mutation)
                return
            }
            let kind = kinds[0].stringValue
            guard TabMutation.kinds.contains(kind) else {
                mutation = .unreadable(kind: kind, problem: "unknown kind")
                return
            }
            do {
                mutation = try container.decode(TabMutation.self, forKey: .mutation)
            } catch let error as DecodingError {
                mutation = .unreadable(kind: kind, problem: error.whereAndWhat)
            }
        }

        private struct MutationKind: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }

    public init(device: String, mutations: [Numbered], version: Int = TabSyncFormat.version) {
        self.version = version
        self.device = device
        self.mutations = mutations
    }
}

/// What a server did with a push: every mutation of the device through `lastMutation`
/// is settled (applied, or refused as `refusals` says); those after it were not applied
/// (they came after a gap, or a mutation could not be written) and are pushed again.
public struct TabSyncPushResult: Sendable, Hashable, Codable {
    public var version: Int
    public var lastMutation: Int
    /// The refusals among the push's mutations, and any earlier ones the device may not have heard of.
    public var refusals: [TabSyncRefusal]

    public init(lastMutation: Int, refusals: [TabSyncRefusal], version: Int = TabSyncFormat.version) {
        self.version = version
        self.lastMutation = lastMutation
        self.refusals = refusals
    }
}

/// A mutation the server could not apply, and why: the error the rule gave there.
public struct TabSyncRefusal: Sendable, Hashable, Codable {
    public var number: Int
    public var code: TabStoreError.Code
    /// The error's message, one line.
    public var reason: String
    /// The mutation, as the device recorded it; nil in a server's answer (the device has it).
    public var mutation: TabMutation?

    public init(number: Int, code: TabStoreError.Code, reason: String, mutation: TabMutation? = nil) {
        self.number = number
        self.code = code
        self.reason = reason
        self.mutation = mutation
    }
}

/// A device asks for the server's changes since `cookie` (0: everything), and for the
/// sets `sets` whole whatever their changes (those its pending or refused mutations touch).
public struct TabSyncPull: Sendable, Hashable, Codable {
    public var version: Int
    public var device: String
    public var cookie: Int
    /// The device's last mutation whose fate it knows: refusals after it come back.
    public var settled: Int
    public var sets: [String]

    public init(device: String, cookie: Int, settled: Int, sets: [String], version: Int = TabSyncFormat.version) {
        self.version = version
        self.device = device
        self.cookie = cookie
        self.settled = settled
        self.sets = sets
    }
}

/// The server's sets that changed since the pull's cookie (or were asked for), as they
/// stand, and the names among them that have no set now. `complete`: the journal no
/// longer reached back to the cookie, so every set is here and a set the device has that
/// is not here is gone.
public struct TabSyncPullResult: Sendable, Hashable, Codable {
    public var version: Int
    /// Where the next pull starts.
    public var cookie: Int
    public var complete: Bool
    /// Each set as the export document has it, with ids and payloads.
    public var sets: [TabStoreDocument.Entry]
    public var removed: [String]
    /// The device's last settled mutation on the server, and the refusals after the pull's `settled`.
    public var lastMutation: Int
    public var refusals: [TabSyncRefusal]

    public init(
        cookie: Int, complete: Bool, sets: [TabStoreDocument.Entry], removed: [String], lastMutation: Int,
        refusals: [TabSyncRefusal], version: Int = TabSyncFormat.version
    ) {
        self.version = version
        self.cookie = cookie
        self.complete = complete
        self.sets = sets
        self.removed = removed
        self.lastMutation = lastMutation
        self.refusals = refusals
    }
}

/// A server of sync, as a device reaches it: a server store itself (``TabStore`` conforms,
/// for a device that connects to the database), or an app's own transport that carries
/// the messages to one. A transport that fails throws; the device then keeps every
/// mutation and tries again at its next sync.
public protocol TabSyncServer {
    func push(_ request: TabSyncPush) throws(TabStoreError) -> TabSyncPushResult
    func pull(_ request: TabSyncPull) throws(TabStoreError) -> TabSyncPullResult
}

/// Where a device's sync stands (``TabStore/syncStatus()-5ux3a``).
public struct TabSyncStatus: Sendable, Hashable {
    /// The device's id, made when it started syncing.
    public let device: String
    /// The server it syncs with, as given to ``TabStore/startSync(server:device:)-4hhw0``.
    public let server: String
    /// Mutations not yet settled by the server.
    public let pending: Int
    /// How many of this device's mutations the server has settled (applied or refused), in
    /// all: the number of the last one, as mutations are numbered from 1 in order.
    public let settled: Int
    /// When the last sync ended (ms since 1970-01-01 UTC); nil: never.
    public let lastSynced: Int?
    /// Every mutation the server refused, oldest first.
    public let refusals: [TabSyncRefusal]
}

/// What one sync did (``TabStore/sync(with:)-(TabSyncServer)``,
/// ``TabStore/sync(withServerNamed:opening:)``).
public struct TabSyncReport: Sendable, Hashable {
    /// Mutations the server settled in this sync (applied or refused).
    public let pushed: Int
    /// Refusals heard of in this sync.
    public let refusals: [TabSyncRefusal]
    /// Sets the pull brought (changed on the server, or asked for).
    public let setsPulled: Int
    /// Mutations still pending after it.
    public let pending: Int
    /// Messages exchanged (each push and the pull one round trip).
    public let roundTrips: Int
    /// The server, by the name the device knows it by (``TabSyncStatus/server``).
    public let server: String
    /// Why the sync stopped before it was done; nil when it was done. The counts above are
    /// of what it did before: the mutations it pushed stay settled, the others stay pending
    /// for the next sync. Only ``TabStore/sync(withServerNamed:opening:)`` returns one.
    public let failure: Failure?

    /// Why a sync stopped once its server was to be opened.
    public struct Failure: Sendable, Hashable {
        public let error: TabStoreError
        /// The server, when the error is of its store and does not say so (a set damaged
        /// there: the error names the set, not the store).
        public let server: String?
        /// Whether the device had synced with this server before: then one that cannot be
        /// reached may be away for now (offline, a share not mounted yet). A device that
        /// never has may have been given a wrong server.
        public let deviceHadSynced: Bool
    }
}

extension DecodingError {
    /// Where in a message the value is and what is wrong with it, in one line.
    package var whereAndWhat: String {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            return text.isEmpty ? "the message" : String(text.drop { $0 == "." })
        }
        switch self {
        case let .keyNotFound(key, context): return "\(path(context.codingPath + [key])) is missing"
        case let .typeMismatch(_, context), let .valueNotFound(_, context): return "\(path(context.codingPath)) is not of the expected type"
        case let .dataCorrupted(context): return "\(path(context.codingPath)) is not a valid value"
        @unknown default: return "not a valid value"
        }
    }
}
