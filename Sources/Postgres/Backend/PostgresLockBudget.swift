/// The busy timeout as a bound on a whole write: every lock it waits for (its sets' locks,
/// rows another client holds), on every try, shares one budget. `lock_timeout` would count
/// each lock on its own, so a write waiting for three locks could wait three times as long.
struct PostgresLockBudget {
    let total: Duration
    let start: ContinuousClock.Instant

    init(_ total: Duration, from start: ContinuousClock.Instant = .now) {
        self.total = total
        self.start = start
    }

    /// The `lock_timeout` for the statements sent at `now`: what is left of the budget, and
    /// at least a millisecond (0 would wait for ever), so a lock that is free is still taken.
    func lockTimeout(at now: ContinuousClock.Instant = .now) -> Duration {
        max(total - (now - start), .milliseconds(1))
    }

    /// That timeout as `set_config` takes it.
    func setting(at now: ContinuousClock.Instant = .now) -> String {
        String(max(lockTimeout(at: now).milliseconds, 1)) + "ms"
    }

    /// Sets the transaction's `lock_timeout` ($1); sent ahead of each part of a write.
    static let statement = "SELECT pg_catalog.set_config('lock_timeout', $1, true)"
}
