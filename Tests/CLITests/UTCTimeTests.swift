import Testing
@testable import TabStoreCLI

@Suite struct UTCTimeTests {
    @Test(arguments: [
        (0, "1970-01-01T00:00:00.000Z"),
        (1_796_008_522_123, "2026-11-30T03:15:22.123Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),  // a 400-year leap day
        (1_709_164_800_999, "2024-02-29T00:00:00.999Z"),
        (4_107_542_400_000, "2100-03-01T00:00:00.000Z"),  // 2100 has no 29 February
        (4_107_542_399_999, "2100-02-28T23:59:59.999Z"),
        (-1, "1969-12-31T23:59:59.999Z"),  // before 1970 rounds down to the day before
        (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ])
    func iso8601(milliseconds: Int, expected: String) {
        #expect(UTCTime.iso8601(milliseconds: milliseconds) == expected)
    }

    /// Day by day across four centuries, each date is the day after the one before.
    @Test func everyDayFollowsTheDayBefore() {
        var previous = UTCTime.civil(fromDays: -146_097)
        #expect(previous == (1570, 1, 1))
        let daysInMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        for days in -146_096...146_097 {
            let date = UTCTime.civil(fromDays: days)
            let isLeap = previous.year % 4 == 0 && (previous.year % 100 != 0 || previous.year % 400 == 0)
            let monthLength = previous.month == 2 && isLeap ? 29 : daysInMonth[previous.month - 1]
            let expected = previous.day < monthLength ? (previous.year, previous.month, previous.day + 1)
                : previous.month < 12 ? (previous.year, previous.month + 1, 1) : (previous.year + 1, 1, 1)
            guard date == expected else {
                Issue.record("day \(days): \(date), expected \(expected)")
                return
            }
            previous = date
        }
        #expect(previous == (2370, 1, 1))
    }
}
