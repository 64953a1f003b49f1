import Testing
@testable import TabStorePostgres

/// The busy timeout bounds a whole write: each part's lock_timeout is what is left of it.
@Suite struct PostgresLockBudgetTests {
    @Test func eachPartWaitsForWhatIsLeftAndAFreeLockIsStillTaken() {
        let start = ContinuousClock.now
        let budget = PostgresLockBudget(.seconds(5), from: start)
        #expect(budget.setting(at: start) == "5000ms")
        #expect(budget.setting(at: start + .milliseconds(3250)) == "1750ms")
        #expect(budget.setting(at: start + .seconds(5)) == "1ms")
        #expect(budget.setting(at: start + .seconds(9)) == "1ms")
        #expect(PostgresLockBudget(.zero, from: start).setting(at: start) == "1ms")
    }
}
