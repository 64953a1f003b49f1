/// What a sync server takes from a device, at most. A server receives messages from devices
/// it does not control, so each is bounded before it is decoded or applied: a message past a
/// limit is refused whole (``TabStoreError/Code/syncLimitExceeded``, naming the limit) and
/// changes nothing. A device never records an edit whose mutation a server would refuse for
/// its size: the edit itself is refused.
public enum TabSyncLimits {
    /// Bytes of one message as JSON: TabStoreFoundation's readers (`TabSyncPush(json:)` and
    /// the others) stop reading there.
    public static let messageBytes = 16 << 20
    /// Bytes of one mutation in the form a device keeps it (UTF-8 text with lengths): as
    /// JSON, with every byte escaped, it still fits a message, so a push of it is taken.
    public static let mutationBytes = 2 << 20
    /// Mutations in one push.
    public static let mutationsPerPush = 500
    /// Tabs (or tab ids) one mutation carries.
    public static let tabsPerMutation = 10_000
    /// Sets a pull asks for by name (a device with more pending asks for every set).
    public static let setsPerPull = 10_000
    /// JSON values (objects, arrays and the members and elements in them) in one message:
    /// what decoding one allocates for stays bounded.
    public static let messageValues = 250_000
    /// Mutation numbers and cookies: 0 through 2^53, exact in every JSON reader, and far from
    /// any overflow when a server adds one.
    public static let largestNumber = 1 << 53
    static let numbers = 0...largestNumber
}

extension TabSyncPush {
    /// Checks what a server checks of a push before it applies any of it: its version, its
    /// device id, its size, and mutation numbers in 1...``TabSyncLimits/largestNumber``, each
    /// once. A mutation's own content is checked as it is applied, and refused alone.
    package func check() throws(TabStoreError) {
        try requireVersion(version)
        try validDeviceID(device)
        try requireAtMost(mutations.count, TabSyncLimits.mutationsPerPush, "mutations in a push")
        var numbers = Set<Int>()
        for numbered in mutations {
            guard (1...TabSyncLimits.largestNumber).contains(numbered.number) else {
                throw TabStoreError(.invalidSyncMessage(reason: "mutation number \(numbered.number) is outside 1...\(TabSyncLimits.largestNumber)"))
            }
            guard numbers.insert(numbered.number).inserted else {
                throw TabStoreError(.invalidSyncMessage(reason: "mutation number \(numbered.number) appears twice"))
            }
        }
    }
}

extension TabSyncPull {
    /// Checks what a server checks of a pull before it reads anything.
    package func check() throws(TabStoreError) {
        try requireVersion(version)
        try validDeviceID(device)
        try requireNumber(cookie, "cookie")
        try requireNumber(settled, "settled")
        try requireAtMost(sets.count, TabSyncLimits.setsPerPull, "sets asked for in a pull")
        for name in sets {
            if let problem = nameProblem(name) { throw TabStoreError(.invalidSyncMessage(reason: "set name \(quoted(name)) asked for: \(problem)")) }
        }
    }
}

extension TabSyncPushResult {
    /// Checks what a device checks of a server's answer before it records any of it.
    package func check() throws(TabStoreError) {
        try requireVersion(version)
        try requireNumber(lastMutation, "lastMutation")
        try checkRefusals(refusals)
    }
}

extension TabSyncPullResult {
    /// Checks what a device checks of a server's answer before it records any of it (the
    /// sets as a document, by the caller).
    package func check() throws(TabStoreError) {
        try requireVersion(version)
        try requireNumber(cookie, "cookie")
        try requireNumber(lastMutation, "lastMutation")
        try checkRefusals(refusals)
    }
}

private func checkRefusals(_ refusals: [TabSyncRefusal]) throws(TabStoreError) {
    for refusal in refusals { try requireNumber(refusal.number, "a refusal's number") }
}

extension TabMutation {
    /// Refuses what no store would hold or a device could read back, before anything is
    /// read: names and titles as every edit checks them, payloads, tab ids that are not
    /// the nil UUID and appear once, and its size.
    ///
    /// - Throws: `TabStoreError.Code.invalidMutation`, `.syncLimitExceeded`, or the error the
    ///   edit itself would give (`.invalidSetName`, `.invalidTitle`, a payload's).
    func validate() throws(TabStoreError) {
        for name in setNames { try validSetName(name) }
        switch self {
        case let .add(_, tabs, before, _):
            try Self.validate(tabs)
            try Self.requireIDs(before.map { [$0] } ?? [])
        case let .remove(_, ids):
            try requireAtMost(ids.count, TabSyncLimits.tabsPerMutation, "tab ids in a mutation")
            try Self.requireIDs(ids)
        case let .move(_, id, before):
            try Self.requireIDs([id] + (before.map { [$0] } ?? []))
        case let .rename(_, id, title):
            try Self.requireIDs([id])
            try validTitle(title)
        case let .select(_, id):
            try Self.requireIDs([id])
        case let .setPayload(_, id, payload):
            try Self.requireIDs([id])
            try validPayload(payload)
        case let .ensureSet(_, tabs):
            try Self.validate(tabs)
        case let .put(_, tabs, selectedIndex, replacing):
            try Self.validate(tabs)
            try requireAtMost(replacing.count, TabSyncLimits.tabsPerMutation, "tab ids in a mutation")
            try Self.requireIDs(replacing)
            guard selectedIndex.map(tabs.indices.contains) ?? tabs.isEmpty else {
                throw TabStoreError(.invalidMutation(reason: "selected index \(selectedIndex.map(String.init) ?? "null") for \(tabs.count) tabs"))
            }
        case .renameSet, .removeSet:
            break
        case let .unreadable(kind, problem):
            throw TabStoreError(.invalidMutation(reason: "\(quoted(kind)): \(problem)"))
        }
        let bytes = stored.utf8.count
        try requireAtMost(bytes, TabSyncLimits.mutationBytes, "bytes in a mutation")
    }

    private static func validate(_ tabs: [SyncedTab]) throws(TabStoreError) {
        try requireAtMost(tabs.count, TabSyncLimits.tabsPerMutation, "tabs in a mutation")
        try requireIDs(tabs.map(\.id))
        var titles = Set<ExactName>()
        for tab in tabs {
            try validTitle(tab.title)
            try validPayload(tab.payload)
            guard titles.insert(ExactName(tab.title)).inserted else { throw TabStoreError(.repeatedTitle(title: tab.title)) }
        }
    }

    /// Ids a tab can have: not the nil UUID, none twice.
    private static func requireIDs(_ ids: [TabID]) throws(TabStoreError) {
        var seen = Set<TabID>()
        for id in ids {
            if id == .unknown { throw TabStoreError(.invalidMutation(reason: "a tab id is the nil UUID")) }
            guard seen.insert(id).inserted else { throw TabStoreError(.invalidMutation(reason: "tab id \(id) appears twice")) }
        }
    }
}

func requireVersion(_ version: Int) throws(TabStoreError) {
    guard TabSyncFormat.readableVersions.contains(version) else {
        throw TabStoreError(.syncVersionNotSupported(version: version, readable: TabSyncFormat.readableVersions))
    }
}

/// A device id is a name a server keys on: 1 to 200 bytes, no control characters.
func validDeviceID(_ id: String) throws(TabStoreError) {
    guard !id.isEmpty, id.utf8.count <= 200, !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
        throw TabStoreError(.invalidSyncMessage(reason: "a device id is 1 to 200 bytes without control characters"))
    }
}

/// A mutation number or cookie, from a message, a device's file or a server's answer.
func requireNumber(_ value: Int, _ what: String) throws(TabStoreError) {
    guard TabSyncLimits.numbers.contains(value) else {
        throw TabStoreError(.invalidSyncMessage(reason: "\(what) \(value) is outside 0...\(TabSyncLimits.largestNumber)"))
    }
}

func requireAtMost(_ count: Int, _ limit: Int, _ what: String) throws(TabStoreError) {
    if count > limit { throw TabStoreError(.syncLimitExceeded(limit: what, maximum: limit, found: count)) }
}
