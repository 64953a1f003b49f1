/// Sync's tables in a file (migrations/0010_sync.sql): a device's log and state, and the
/// server's record of each device, for a file that serves as a server.
extension Database: SyncReader, SyncDeviceRecords, SyncServerRecords {
    func recordsMutations() throws(TabStoreError) -> Bool {
        try firstRow("SELECT 1 FROM sync_device") { _ in true } ?? false
    }

    /// A file's write transaction holds the whole file: nothing more to lock.
    func lastSettledMutation(of device: String) throws(TabStoreError) -> SettledMutation {
        try firstRow("SELECT last_mutation, last_body FROM sync_client WHERE device_id = ?", [.text(device)]) {
            SettledMutation(number: $0.int(0), body: $0.optionalText(1))
        } ?? .none
    }

    /// The device's row; its numbers and id are checked, as what sync does arithmetic on
    /// and sends (mutation 0 in the error: the row, not a mutation).
    func deviceRow() throws(TabStoreError) -> SyncDeviceRow? {
        guard let (device, sound) = try storedDeviceRow() else { return nil }
        guard sound else { throw TabStoreError(.damagedSyncLog(path: path, mutation: 0)) }
        return device
    }

    private func storedDeviceRow() throws(TabStoreError) -> (SyncDeviceRow, sound: Bool)? {
        try firstRow("SELECT device_id, server, cookie, synced_at, last_mutation FROM sync_device") { row in
            let device = SyncDeviceRow(id: row.text(0), server: row.text(1), cookie: row.int(2), syncedAt: row.optionalInt(3))
            let numbers = TabSyncLimits.numbers
            let sound = numbers.contains(device.cookie) && numbers.contains(row.int(4)) && (try? validDeviceID(device.id)) != nil
            return (device, sound)
        }
    }

    func pendingMutations(limit: Int) throws(TabStoreError) -> [TabSyncPush.Numbered] {
        var pending: [TabSyncPush.Numbered] = []
        var unreadable: Int?
        try forEachRow("SELECT id, body FROM sync_mutation ORDER BY id LIMIT ?", [.int(limit)]) { row in
            guard let mutation = loggedMutation(row) else {
                unreadable = unreadable ?? row.int(0)
                return
            }
            pending.append(TabSyncPush.Numbered(number: row.int(0), mutation: mutation))
        }
        if let unreadable { throw TabStoreError(.damagedSyncLog(path: path, mutation: unreadable)) }
        return pending
    }

    /// The pending mutations that do not read back, after 0 when the device's row is damaged.
    func unreadableMutations() throws(TabStoreError) -> [Int] {
        var numbers: [Int] = try storedDeviceRow().map { $0.sound ? [] : [0] } ?? []
        try forEachRow("SELECT id, body FROM sync_mutation ORDER BY id") { row in
            if loggedMutation(row) == nil { numbers.append(row.int(0)) }
        }
        return numbers
    }

    /// A row of the log (id, body) as its mutation; nil when its number or body is not as
    /// tabstore writes it.
    private func loggedMutation(_ row: Statement) -> TabMutation? {
        TabSyncLimits.numbers.contains(row.int(0)) ? TabMutation(stored: row.text(1)) : nil
    }

    func pendingMutationCount() throws(TabStoreError) -> Int {
        try firstRow("SELECT count(*) FROM sync_mutation") { $0.int(0) } ?? 0
    }

    func refusedMutations(unreportedOnly: Bool) throws(TabStoreError) -> [TabSyncRefusal] {
        var refusals: [TabSyncRefusal] = []
        try forEachRow("SELECT id, code, reason, body FROM sync_refused WHERE reported = 0 OR ? = 0 ORDER BY id", [.int(unreportedOnly ? 1 : 0)]) { row in
            refusals.append(TabSyncRefusal(
                number: row.int(0), code: TabStoreError.Code(rawValue: row.text(1)), reason: row.text(2), mutation: TabMutation(stored: row.text(3))
            ))
        }
        return refusals
    }

    func settledThrough() throws(TabStoreError) -> Int {
        try firstRow("SELECT coalesce((SELECT min(id) - 1 FROM sync_mutation), last_mutation) FROM sync_device") { $0.int(0) } ?? 0
    }

    func servesDevices() throws(TabStoreError) -> Bool {
        try firstRow("SELECT 1 FROM sync_client LIMIT 1") { _ in true } ?? false
    }

    func lastMutationNumber() throws(TabStoreError) -> Int {
        try firstRow(
            """
            SELECT max(last_mutation, coalesce((SELECT max(id) FROM sync_mutation), 0), coalesce((SELECT max(id) FROM sync_refused), 0))
            FROM sync_device
            """
        ) { $0.int(0) } ?? 0
    }

    func setsAwaitingTheServer() throws(TabStoreError) -> [String] {
        var names: [String] = []
        var seen = Set<ExactName>()
        try forEachRow("SELECT body FROM sync_mutation UNION ALL SELECT body FROM sync_refused WHERE pulled = 0") { row in
            for name in TabMutation(stored: row.text(0))?.setNames ?? [] where seen.insert(ExactName(name)).inserted {
                names.append(name)
            }
        }
        return names
    }

    func newRefusals(_ refusals: [TabSyncRefusal], through number: Int) throws(TabStoreError) -> [TabSyncRefusal] {
        var heard: [TabSyncRefusal] = []
        for refusal in refusals where refusal.number <= number {
            guard let body = try firstRow("SELECT body FROM sync_mutation WHERE id = ?", [.int(refusal.number)], row: { $0.text(0) }) else { continue }
            heard.append(TabSyncRefusal(number: refusal.number, code: refusal.code, reason: refusal.reason, mutation: TabMutation(stored: body)))
        }
        return heard
    }

    func settledMutations(of device: String, refusedFrom number: Int) throws(TabStoreError) -> (last: Int, refusals: [TabSyncRefusal]) {
        let last = try lastSettledMutation(of: device).number
        var refusals: [TabSyncRefusal] = []
        try forEachRow(
            "SELECT mutation, code, reason FROM sync_refusal WHERE device_id = ? AND mutation >= ? ORDER BY mutation",
            [.text(device), .int(number)]
        ) { row in
            refusals.append(TabSyncRefusal(number: row.int(0), code: TabStoreError.Code(rawValue: row.text(1)), reason: row.text(2)))
        }
        return (last, refusals)
    }

    func oldestJournalPosition() throws(TabStoreError) -> Int? {
        try firstRow("SELECT min(id) FROM change") { $0.optionalInt(0) } ?? nil
    }

    /// The plan's sync writes (see `PlannedWrite`).
    func executeSync(_ write: PlannedWrite) throws(TabStoreError) {
        switch write {
        case let .recordMutations(mutations):
            // Numbered after the newest pending one, or the last settled when none is: one
            // row written, and the device's row only when the server settles them.
            for mutation in mutations {
                try execute(
                    """
                    INSERT INTO sync_mutation (id, body)
                    SELECT max(last_mutation, coalesce((SELECT max(id) FROM sync_mutation), 0)) + 1, ? FROM sync_device
                    """, [.text(mutation.stored)]
                )
            }
        case let .settleMutation(device, number, body, refusal):
            try execute(
                """
                INSERT INTO sync_client (device_id, last_mutation, last_body) VALUES (?1, ?2, ?3)
                ON CONFLICT (device_id) DO UPDATE SET last_mutation = excluded.last_mutation, last_body = excluded.last_body
                """, [.text(device), .int(number), .text(body)]
            )
            if let refusal {
                try execute(
                    "INSERT INTO sync_refusal (device_id, mutation, code, reason) VALUES (?, ?, ?, ?)",
                    [.text(device), .int(number), .text(refusal.code.rawValue), .text(refusal.reason)]
                )
            }
        case let .updateSyncDevice(.start(device, server)):
            try execute(
                "INSERT INTO sync_device (singleton, device_id, server, last_mutation, cookie) VALUES (1, ?, ?, 0, 0)",
                [.text(device), .text(server)]
            )
        case let .updateSyncDevice(.settled(through, refusals)):
            for refusal in refusals {
                try execute(
                    "INSERT INTO sync_refused (id, body, code, reason) SELECT id, body, ?, ? FROM sync_mutation WHERE id = ?",
                    [.text(refusal.code.rawValue), .text(refusal.reason), .int(refusal.number)]
                )
            }
            try execute("UPDATE sync_device SET last_mutation = max(last_mutation, ?)", [.int(through)])
            try execute("DELETE FROM sync_mutation WHERE id <= ?", [.int(through)])
        case let .updateSyncDevice(.reported(through)):
            try execute("UPDATE sync_refused SET reported = 1 WHERE id <= ?", [.int(through)])
        case let .updateSyncDevice(.pulled(cookie, time)):
            try execute("UPDATE sync_device SET cookie = ?, synced_at = ?", [.int(cookie), .int(time)])
            try execute("UPDATE sync_refused SET pulled = 1 WHERE pulled = 0")
        default:
            break
        }
    }
}
