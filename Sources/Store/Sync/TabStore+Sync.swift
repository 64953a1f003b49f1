#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sync (<doc:OfflineSync>): a device keeps its tabs in its own file and records each edit's
/// mutation there; `sync(with:)` pushes them to a server store, which applies each once,
/// and pulls the server's changes, on which the device's pending mutations are planned
/// again. The server side is `push(_:)` and `pull(_:)`, on any store: the tabs, their
/// order, payloads and the selected tab are the server's, shared by every device.
extension TabStore {
    // MARK: The device

    /// Makes this file a device that syncs with `server` (a name for people: `info` shows
    /// it; the transport is given to each ``sync(with:)-(TabSyncServer)``): from now on every edit records
    /// its mutation in the same transaction. The sets already here are recorded as sets to
    /// make when missing, so that their tabs reach a server that lacks them; a server that
    /// has a set of the same name keeps its own, which the first pull brings here (one with
    /// other tabs refuses the device's, `.setAlreadyExists`, in the first sync's report).
    /// A file that already syncs with `server` is left as it is.
    ///
    /// - Throws: `TabStoreError.Code.syncNeedsAFile` on a server's store, `.syncsWithAnotherServer`
    ///   for a file that syncs with another, `.deviceAndServer` for a file that has served
    ///   devices, or a database error.
    @discardableResult
    public func startSync(server: String, device: String? = nil) throws(TabStoreError) -> TabSyncStatus {
        let alreadySyncing = try checkCanSync(with: server)
        if let device { try validDeviceID(device) }
        if alreadySyncing { return try syncStatus() }
        let names = try backend.read { records throws(TabStoreError) in try records.setNames() }
        let context = RuleContext(options: options, wantsResults: true)
        try deviceTransaction { _, run throws(TabStoreError) in
            _ = try run { reader throws(TabStoreError) in
                var plan = WritePlan()
                guard try !reader.recordsMutations() else { return plan }
                var mutations: [TabMutation] = []
                for name in names {
                    var request = SnapshotRequest(setName: name)
                    request.allTabs = true
                    let snapshot = try context.snapshot(request, from: reader, into: &plan)
                    guard let record = snapshot.record, let tabs = snapshot.tabs else { continue }
                    let synced = tabs.map { SyncedTab(id: $0.uuid, title: $0.title, payload: $0.payload) }
                    mutations.append(.ensureSet(set: name, tabs: synced))
                    // Its selection too, when it is not the first tab an ensure selects.
                    if let selected = record.selected, selected.index != 0 {
                        mutations.append(.select(set: name, id: selected.uuid))
                    }
                }
                for mutation in mutations { try mutation.validate() }
                plan.append(.updateSyncDevice(.start(device: device ?? TabID().uuidString, server: server)))
                plan.append(.recordMutations(mutations))
                return plan
            }
        }
        return try syncStatus()
    }

    /// Checks what ``startSync(server:device:)-4hhw0`` checks first, and changes nothing: that
    /// this store can be a device and syncs with no server but `server`.
    /// ``sync(withServerNamed:opening:)`` asks before it opens (or makes) the server's store,
    /// so that a refusal touches no server.
    ///
    /// - Returns: whether this file already syncs with `server`.
    /// - Throws: `TabStoreError.Code.syncNeedsAFile` on a server's store,
    ///   `.syncsWithAnotherServer` for a file that syncs with another, `.deviceAndServer` for a
    ///   file that has served devices, or a database error.
    @discardableResult
    func checkCanSync(with server: String) throws(TabStoreError) -> Bool {
        guard let device = backend.syncDevice else { throw TabStoreError(.syncNeedsAFile(database: location)) }
        let (current, serves) = try device.readLog { log throws(TabStoreError) in (try log.deviceRow(), try log.servesDevices()) }
        guard let current else {
            if serves { throw TabStoreError(.deviceAndServer(path: location)) }
            return false
        }
        // Byte for byte, as the server's name is stored: a name that only looks the same is another.
        guard sameBytes(current.server, server) else { throw TabStoreError(.syncsWithAnotherServer(path: location, server: current.server)) }
        return true
    }

    /// Whether this store can be a device that syncs: a file can; a server's store is only
    /// ever a server (``startSync(server:device:)-4hhw0`` refuses it).
    public var canBeADevice: Bool { backend.syncDevice != nil }

    /// Where this device's sync stands.
    ///
    /// - Throws: `TabStoreError.Code.syncNotStarted` when the file does not sync.
    public func syncStatus() throws(TabStoreError) -> TabSyncStatus {
        guard let status = try syncStatusIfStarted() else { throw TabStoreError(.syncNotStarted(path: location)) }
        return status
    }

    /// Where this device's sync stands; nil for a file that does not sync (or a server's store).
    private func syncStatusIfStarted() throws(TabStoreError) -> TabSyncStatus? {
        guard let device = backend.syncDevice else { return nil }
        return try device.readLog { log throws(TabStoreError) in
            try log.readTransaction { () throws(TabStoreError) in
                guard let device = try log.deviceRow() else { return nil }
                return TabSyncStatus(
                    device: device.id, server: device.server, pending: try log.pendingMutationCount(),
                    settled: try log.settledThrough(), lastSynced: device.syncedAt, refusals: try log.refusedMutations(unreportedOnly: false)
                )
            }
        }
    }

    /// Pushes this device's pending mutations to `server` (at most ``TabSyncLimits/mutationsPerPush`` a
    /// round trip) and pulls what changed there: afterwards this file holds the server's
    /// sets with the mutations still pending planned again on top. A mutation the server
    /// refused is in ``syncStatus()-5ux3a`` from then on, and in the report of the first sync to
    /// end after it was heard (one that failed leaves it to the next); its set is the
    /// server's again. A transport that fails leaves pending every mutation the server has
    /// not settled (those of earlier pushes of this sync are settled): nothing is lost, and
    /// the next sync goes on from there.
    ///
    /// - Throws: `TabStoreError.Code.syncNotStarted`, the transport's error, `.invalidSyncMessage`
    ///   for an answer that is not one, `.deviceCopied` or `.serverBehind` for a device or a
    ///   server that is a copy of what it was, or a database error.
    @discardableResult
    public func sync(with server: some TabSyncServer) throws(TabStoreError) -> TabSyncReport {
        var progress = SyncProgress()
        return try exchange(with: server, progress: &progress)
    }

    /// One sync with the server store people know as `name` (a file by its absolute path,
    /// a server by its URL without its password), all of it decided here, as `tabstore sync`
    /// makes it:
    ///
    /// - First, before the server is opened, that this store can be a device of `name`: a
    ///   file, that syncs with no other server and has served no device. A file that syncs
    ///   with a server it knows by another name of the same file (`..`, a symbolic link,
    ///   another mount of it) syncs with that server, under the name it knows.
    /// - `openServer` opens the server's store, making it when missing only if
    ///   `creatingIfMissing`: never for a device that has synced with it, as a missing one (a
    ///   share not mounted, a file moved) would be a new, empty server that knows none of the
    ///   device's edits and would wait for them forever.
    /// - A file that does not sync yet starts (``startSync(server:device:)-4hhw0``) once the
    ///   server has said it can serve (a device's file cannot): a refused server leaves the
    ///   file as it was.
    /// - Then it syncs as ``sync(with:)-(TabSyncServer)`` does.
    ///
    /// - Returns: what the sync did; one that stopped once its server was to be opened says
    ///   why in ``TabSyncReport/failure``, with the mutations the server settled before.
    /// - Throws: `TabStoreError.Code.syncNeedsAFile` on a server's store,
    ///   `.syncsWithAnotherServer` for a file that syncs with another, `.deviceAndServer` for
    ///   a file that has served devices, `.damagedSyncLog`, or a database error: the sync
    ///   did not begin, and nothing was opened or changed.
    public func sync(
        withServerNamed name: String, opening openServer: (_ creatingIfMissing: Bool) throws(TabStoreError) -> TabStore
    ) throws(TabStoreError) -> TabSyncReport {
        let status = try syncStatusIfStarted()
        var name = name
        if let known = status?.server, known != name, isSameFile(known, name) { name = known }
        try checkCanSync(with: name)
        let hadSynced = status?.lastSynced != nil
        var progress = SyncProgress()
        var answering: ServerAnswering?
        var settledBefore: Int?
        do throws(TabStoreError) {
            let server = try openServer(!hadSynced)
            // Before the device starts: a refused server leaves it as it was.
            try server.checkCanServe()
            if status == nil { try startSync(server: name) }
            settledBefore = try settledThrough()
            let answer = ServerAnswering(server)
            answering = answer
            return try exchange(with: answer, progress: &progress)
        } catch {
            // The error speaks only of the request that failed: what the server settled
            // before it is counted here.
            let pushed = settledBefore.map { before in ((try? settledThrough()) ?? before) - before } ?? 0
            let onServer = answering?.failed == true && error.code == .damagedSet
            let pending = (try? syncStatusIfStarted())?.pending ?? status?.pending ?? 0
            return TabSyncReport(
                pushed: pushed, refusals: [], setsPulled: progress.setsPulled, pending: pending, roundTrips: progress.roundTrips,
                server: name, failure: TabSyncReport.Failure(error: error, server: onServer ? name : nil, deviceHadSynced: hadSynced)
            )
        }
    }

    /// What a sync has done so far.
    private struct SyncProgress {
        var roundTrips = 0
        var setsPulled = 0
    }

    private func exchange(with server: some TabSyncServer, progress: inout SyncProgress) throws(TabStoreError) -> TabSyncReport {
        // A device that cannot record what the server settled would have changed the server
        // and then failed: refused before the first push.
        if let refusal = backend.syncDevice?.writeRefusal { throw refusal }
        var pushed = 0
        while let push = try pushRequest() {
            let result = try server.push(push)
            progress.roundTrips += 1
            // What this sync's answer settled, counted in the transaction that records it:
            // another sync of this device at the same time has its own count.
            let recorded = try record(result)
            pushed += recorded.settled
            // The server took no more than it had (a gap it waits to see filled, a
            // mutation it could not write): the pull comes next, the rest another time.
            if result.lastMutation < push.mutations.last?.number ?? 0 { break }
        }
        // A local edit between the request and its answer touches a set the answer may
        // not hold: the pull is asked again (rare: it takes a write while syncing).
        for _ in 0..<3 {
            let request = try pullRequest()
            let result = try server.pull(request)
            progress.roundTrips += 1
            guard try apply(result).done else { continue }
            progress.setsPulled = result.sets.count + result.removed.count
            break
        }
        let refusals = try takeUnreportedRefusals()
        let status = try syncStatus()
        return TabSyncReport(
            pushed: pushed, refusals: refusals, setsPulled: progress.setsPulled, pending: status.pending,
            roundTrips: progress.roundTrips, server: status.server, failure: nil
        )
    }

    /// The next push: the oldest pending mutations, at most
    /// ``TabSyncLimits/mutationsPerPush`` and ``TabSyncLimits/mutationBytes`` of them (one at
    /// least), so that it fits a message; nil when none is pending. For a transport of an
    /// app's own; ``sync(with:)-(TabSyncServer)`` does it all.
    public func pushRequest() throws(TabStoreError) -> TabSyncPush? {
        try readStartedLog { log, device throws(TabStoreError) in
            let pending = try log.pendingMutations(limit: TabSyncLimits.mutationsPerPush)
            var bytes = 0, count = 0
            for numbered in pending {
                bytes += numbered.mutation.stored.utf8.count
                if count > 0 && bytes > TabSyncLimits.mutationBytes { break }
                count += 1
            }
            return pending.isEmpty ? nil : TabSyncPush(device: device.id, mutations: Array(pending.prefix(count)))
        }
    }

    /// Records what the server did with a push: settled mutations leave the log, refused
    /// ones are kept with their reasons. Returns the refusals new to this device.
    @discardableResult
    public func acknowledge(_ result: TabSyncPushResult) throws(TabStoreError) -> [TabSyncRefusal] {
        try record(result).heard
    }

    /// Records a push's answer; returns how many mutations it settled that this file had
    /// not yet recorded as settled, and the refusals new to it.
    private func record(_ result: TabSyncPushResult) throws(TabStoreError) -> (settled: Int, heard: [TabSyncRefusal]) {
        try result.check()
        var heard: [TabSyncRefusal] = []
        var settled = 0
        try deviceTransaction { log, run throws(TabStoreError) in
            try requireAgreement(through: result.lastMutation, log)
            let before = try log.settledThrough()
            settled = before < result.lastMutation ? result.lastMutation - max(before, 0) : 0
            heard = try log.newRefusals(result.refusals, through: result.lastMutation)
            _ = try run { _ in
                var plan = WritePlan()
                plan.append(.updateSyncDevice(.settled(through: result.lastMutation, refusals: heard)))
                return plan
            }
        }
        return (settled, heard)
    }

    /// The next pull: from the last one's cookie, asking whole for the sets of pending and
    /// refused mutations.
    public func pullRequest() throws(TabStoreError) -> TabSyncPull {
        try readStartedLog { log, device throws(TabStoreError) in
            // A name no set can have (a mutation written by other means) is refused by
            // every server, and no server has its set: not asked for.
            let sets = try log.setsAwaitingTheServer().filter { nameProblem($0) == nil }
            // More sets than a pull names: the whole store (cookie 0) instead.
            let tooMany = sets.count > TabSyncLimits.setsPerPull
            return TabSyncPull(
                device: device.id, cookie: tooMany ? 0 : device.cookie, settled: try log.settledThrough(),
                sets: tooMany ? [] : sets
            )
        }
    }

    /// Makes this file the server's state of the pulled sets with the pending mutations
    /// planned again on top, in one transaction. `done` is false when a mutation pending
    /// now touches a set the pull does not hold (an edit made since the request): then only
    /// what the server settled is recorded, no set is changed, and the pull is to be asked
    /// again.
    @discardableResult
    public func apply(_ result: TabSyncPullResult) throws(TabStoreError) -> (done: Bool, refusals: [TabSyncRefusal]) {
        try result.check()
        let localNames = result.complete ? try backend.read { records throws(TabStoreError) in try records.setNames() } : []
        let pulled = Set((result.sets.map(\.name) + result.removed).map(ExactName.init))
        if pulled.count != result.sets.count + result.removed.count {
            throw TabStoreError(.invalidSyncMessage(reason: "a set is named twice in a pull's answer"))
        }
        do {
            try TabStoreDocument(sets: result.sets).validate()
        } catch {
            // The server's fault, not the device's: said so, with what the server sent.
            let reason = if case let .invalidDocument(reason) = error.reason { reason } else { error.description }
            throw TabStoreError(.invalidSyncMessage(reason: "the server's answer holds a set no store can hold: \(reason)"))
        }
        let context = RuleContext(options: options, wantsResults: true)
        var done = true
        var heard: [TabSyncRefusal] = []
        var plans: [WritePlan] = []
        try deviceTransaction { log, run throws(TabStoreError) in
            try requireAgreement(through: result.lastMutation, log)
            heard = try log.newRefusals(result.refusals, through: result.lastMutation)
            plans.append(try run { _ in
                var plan = WritePlan()
                plan.append(.updateSyncDevice(.settled(through: result.lastMutation, refusals: heard)))
                return plan
            })
            let pending = try log.pendingMutations(limit: Int.max)
            if pending.contains(where: { $0.mutation.setNames.contains { !pulled.contains(ExactName($0)) } }) {
                done = false
                return
            }
            // Sets gone first: a set renamed on the server is gone under its old name, and
            // its tabs' ids are free for the new one.
            let gone = result.removed + localNames.filter { !pulled.contains(ExactName($0)) }
            for name in gone {
                plans.append(try run { reader throws(TabStoreError) in
                    var plan = WritePlan()
                    try MutationRule(.removeSet(set: name)).plan(reading: reader, into: &plan, context: context)
                    return plan
                })
            }
            for entry in result.sets {
                plans.append(try run { reader throws(TabStoreError) in
                    var plan = WritePlan()
                    _ = try ImportRule(TabStoreDocument(sets: [entry]), replace: true).plan(reading: reader, into: &plan, context: context)
                    return plan
                })
            }
            for numbered in pending {
                do throws(TabStoreError) {
                    plans.append(try run { reader throws(TabStoreError) in
                        var plan = WritePlan()
                        try MutationRule(numbered.mutation).plan(reading: reader, into: &plan, context: context)
                        return plan
                    })
                } catch where !error.isDatabaseProblem {
                    // It no longer applies here either; the server will say why it refused it.
                }
            }
            plans.append(try run { _ in
                var plan = WritePlan()
                plan.append(.updateSyncDevice(.pulled(cookie: result.cookie, time: currentTimestamp())))
                return plan
            })
        }
        guard done else { return (false, heard) }
        setCache.withLock { known in for plan in plans { known.update(from: plan) } }
        hub.publish()
        return (true, heard)
    }

    /// The server says it settled this device's mutations through `number`. One this file
    /// never numbered was another file's that syncs as this device (a copy of this file, or
    /// this file put back from an older copy), and this file's of that number would be lost
    /// as settled. One under what it said before is a server that lost them (replaced, or
    /// put back from an older copy): it would wait for them before taking any later one.
    private func requireAgreement(through number: Int, _ log: any SyncDeviceRecords) throws(TabStoreError) {
        guard let device = try log.deviceRow() else { return }
        if number > (try log.lastMutationNumber()) { throw TabStoreError(.deviceCopied(device: device.id, number: number)) }
        let settled = try log.settledThrough()
        if number < settled { throw TabStoreError(.serverBehind(server: device.server, device: device.id, serverSettled: number, settled: settled)) }
    }

    /// The refusals no sync's report has told yet, marked as told.
    private func takeUnreportedRefusals() throws(TabStoreError) -> [TabSyncRefusal] {
        var refusals: [TabSyncRefusal] = []
        try deviceTransaction { log, run throws(TabStoreError) in
            refusals = try log.refusedMutations(unreportedOnly: true)
            guard let last = refusals.last else { return }
            _ = try run { _ in
                var plan = WritePlan()
                plan.append(.updateSyncDevice(.reported(through: last.number)))
                return plan
            }
        }
        return refusals
    }

    private func settledThrough() throws(TabStoreError) -> Int {
        guard let device = backend.syncDevice else { throw TabStoreError(.syncNeedsAFile(database: location)) }
        return try device.readLog { log throws(TabStoreError) in try log.settledThrough() }
    }

    /// Runs `body` in one read of the device's log, with the device's row.
    ///
    /// - Throws: `TabStoreError.Code.syncNotStarted` for a file that does not sync, and for
    ///   a server's store, which never does.
    private func readStartedLog<T: Sendable>(
        _ body: (_ log: any SyncDeviceRecords, _ device: SyncDeviceRow) throws(TabStoreError) -> T
    ) throws(TabStoreError) -> T {
        guard let device = backend.syncDevice else { throw TabStoreError(.syncNotStarted(path: location)) }
        return try device.readLog { log throws(TabStoreError) in
            try log.readTransaction { () throws(TabStoreError) in
                guard let row = try log.deviceRow() else { throw TabStoreError(.syncNotStarted(path: location)) }
                return try body(log, row)
            }
        }
    }

    /// One write transaction of several plans on the device's file
    /// (`SyncDeviceBackend.writeSeries`), told to the suspension gate once committed.
    ///
    /// - Throws: `TabStoreError.Code.syncNeedsAFile` on a server's store, which is never a device.
    private func deviceTransaction(
        _ body: (_ log: any SyncDeviceRecords, _ run: (_ planning: (any WriteReader) throws(TabStoreError) -> WritePlan) throws(TabStoreError) -> WritePlan) throws(TabStoreError) -> Void
    ) throws(TabStoreError) {
        guard let device = backend.syncDevice else { throw TabStoreError(.syncNeedsAFile(database: location)) }
        try device.writeSeries(body)
        suspension.noteCommit()
    }

    // MARK: The server

    /// Checks that this store can serve devices, and changes nothing: a device's file
    /// cannot (its sets are its own server's). ``push(_:)-696g7`` and ``pull(_:)-5qpun`` check it
    /// too; a caller asks before a device starts syncing with it, so that a refusal leaves
    /// the device as it was.
    ///
    /// - Throws: `TabStoreError.Code.deviceAndServer` for a device's file, or a database error.
    func checkCanServe() throws(TabStoreError) {
        // A server's store can never be a device.
        guard let device = backend.syncDevice else { return }
        if try device.readLog({ log throws(TabStoreError) in try log.deviceRow() }) != nil {
            throw TabStoreError(.deviceAndServer(path: location))
        }
    }

    /// Applies a device's pushed mutations, each in its own transaction, in order of their
    /// numbers, each once: the store records the device's last settled mutation with it, so
    /// a push sent again, duplicated or overtaken by a later one applies nothing twice. A
    /// mutation after a gap (an earlier push lost) waits for the gap to be filled. A
    /// mutation its rule refuses here, that no store can hold (`.invalidMutation`: a nil or
    /// repeated tab id, an unknown kind), or that the database itself refuses, is settled as
    /// refused with the error, so that the device's later mutations are applied. A
    /// mutation under the number last settled that is not the one settled is another
    /// file's that syncs as the same device: nothing more of the push is applied.
    ///
    /// - Throws: `TabStoreError.Code.invalidSyncMessage`, `.syncVersionNotSupported`,
    ///   `.syncLimitExceeded`, `.deviceCopied`, `.deviceAndServer`,
    ///   or a database error (the mutations before it are applied; the answer of the next
    ///   push says so).
    public func push(_ request: TabSyncPush) throws(TabStoreError) -> TabSyncPushResult {
        try request.check()
        try checkCanServe()
        let device = request.device
        let context = RuleContext(options: options, wantsResults: false)
        let mutations = request.mutations.sorted { $0.number < $1.number }
        for numbered in mutations {
            let body = storable(numbered.mutation.stored)
            var refusal: TabStoreError?
            do throws(TabStoreError) { try numbered.mutation.validate() } catch { refusal = error }
            let plan: WritePlan
            do throws(TabStoreError) {
                plan = try settle(numbered, body: body, of: device, refusal: refusal, context: context)
            } catch where refusal == nil && error.isDataError {
                // The database refused what the rules let through: settled as refused, so
                // that the device's later edits are not held behind it for ever.
                plan = try settle(numbered, body: body, of: device, refusal: error, context: context)
            }
            setCache.withLock { $0.update(from: plan) }
            if !plan.isEmpty { hub.publish() }
        }
        let first = mutations.first?.number ?? TabSyncLimits.largestNumber
        return try backend.read { records throws(TabStoreError) in
            let settled = try records.settledMutations(of: device, refusedFrom: first)
            return TabSyncPushResult(lastMutation: settled.last, refusals: settled.refusals)
        }
    }

    /// Applies one pushed mutation in a transaction of its own, or settles it as refused
    /// (with `refusal`, or the rule's error); nothing when it is not the next the server
    /// waits for from the device.
    private func settle(
        _ numbered: TabSyncPush.Numbered, body: String, of device: String, refusal: TabStoreError?, context: RuleContext
    ) throws(TabStoreError) -> WritePlan {
        try transaction { reader throws(TabStoreError) in
            var plan = WritePlan()
            let last = try reader.lastSettledMutation(of: device)
            if numbered.number == last.number, let settled = last.body, !sameBytes(settled, body) {
                throw TabStoreError(.deviceCopied(device: device, number: numbered.number))
            }
            // Numbers are checked positive, so this cannot overflow whatever the store holds.
            guard numbered.number - 1 == last.number else { return plan }
            var refusal = refusal
            if refusal == nil {
                do throws(TabStoreError) {
                    try MutationRule(numbered.mutation).plan(reading: reader, into: &plan, context: context)
                } catch where !error.isDatabaseProblem {
                    plan = WritePlan()
                    refusal = error
                }
            }
            let refused = refusal.map { TabSyncRefusal(number: numbered.number, code: $0.code, reason: $0.description) }
            plan.append(.settleMutation(device: device, number: numbered.number, body: body, refusal: refused))
            return plan
        }
    }

    /// The sets that changed since the pull's cookie, and those it asks for, as they stand;
    /// every set when the journal was trimmed past the cookie (or the cookie is 0).
    ///
    /// - Throws: `TabStoreError.Code.invalidSyncMessage`, `.syncVersionNotSupported`,
    ///   `.syncLimitExceeded`, `.deviceAndServer`, or a database error.
    public func pull(_ request: TabSyncPull) throws(TabStoreError) -> TabSyncPullResult {
        try request.check()
        try checkCanServe()
        // The journal first: every change up to the new cookie has committed, so the sets
        // read after it hold it (and perhaps later ones, which the next pull reads again).
        let (oldest, newest) = try backend.read { records throws(TabStoreError) in
            (try records.oldestJournalPosition(), try records.lastChangeID())
        }
        // A cookie past the newest change is not this journal's (a server put back from an
        // older copy, or a device's guess): every set, so that the device starts over from here.
        let complete = request.cookie == 0 || request.cookie > newest || oldest.map { $0 > request.cookie } ?? true
        var cookie = request.cookie
        var names: [String] = []
        if complete {
            cookie = newest
        } else {
            let changes = try backend.readJournal(after: request.cookie, unlessVersionIs: nil).changes
            cookie = changes.last?.id ?? request.cookie
            for (_, change) in changes {
                names.append(change.setName)
                if case let .setRenamed(_, to) = change.event { names.append(to) }
            }
        }
        names += request.sets
        return try backend.read { records throws(TabStoreError) in
            try records.readTransaction { () throws(TabStoreError) in
                if complete { names = try records.setNames() }
                var seen = Set<ExactName>()
                var sets: [TabStoreDocument.Entry] = []
                var removed: [String] = []
                for name in names where seen.insert(ExactName(name)).inserted {
                    guard let record = try records.setRecord(named: name) else {
                        removed.append(name)
                        continue
                    }
                    // Read as every read of a set is, after the rule check: a damaged set
                    // is refused here, not sent to the devices.
                    sets.append(TabStoreDocument.Entry(try records.tabSet(of: record)))
                }
                let settled = try records.settledMutations(of: request.device, refusedFrom: request.settled + 1)
                return TabSyncPullResult(
                    cookie: cookie, complete: complete, sets: sets, removed: removed,
                    lastMutation: settled.last, refusals: settled.refusals
                )
            }
        }
    }
}

extension TabStore: TabSyncServer {}

/// A server store answering a device's sync, noting whether an error came from it.
private final class ServerAnswering: TabSyncServer {
    let store: TabStore
    private(set) var failed = false

    init(_ store: TabStore) {
        self.store = store
    }

    func push(_ request: TabSyncPush) throws(TabStoreError) -> TabSyncPushResult {
        try noting { () throws(TabStoreError) in try store.push(request) }
    }

    func pull(_ request: TabSyncPull) throws(TabStoreError) -> TabSyncPullResult {
        try noting { () throws(TabStoreError) in try store.pull(request) }
    }

    private func noting<Answer>(_ request: () throws(TabStoreError) -> Answer) throws(TabStoreError) -> Answer {
        do {
            return try request()
        } catch {
            failed = true
            throw error
        }
    }
}

/// Whether two names of a server name one file that exists (through `..`, another spelling
/// or a symbolic link): a `postgresql://` URL names none.
private func isSameFile(_ first: String, _ second: String) -> Bool {
    func identity(_ path: String) -> [UInt64]? {
        let scheme = String(path.prefix(11)).lowercased()
        guard !scheme.hasPrefix("postgresql:"), !scheme.hasPrefix("postgres:") else { return nil }
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }
    guard let file = identity(first) else { return false }
    return identity(second) == file
}

/// A mutation's stored form as a server keeps it to recognise it when it is sent again:
/// text PostgreSQL can hold (a mutation with a NUL is refused, but kept all the same).
private func storable(_ body: String) -> String {
    body.utf8.contains(0) ? String(decoding: body.utf8.map { $0 == 0 ? UInt8(ascii: "?") : $0 }, as: UTF8.self) : body
}
