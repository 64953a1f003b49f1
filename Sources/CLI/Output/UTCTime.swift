/// UTC calendar time from the Store's millisecond timestamps, computed by hand so the
/// CLI needs no Foundation (start-up time matters more than a date library).
enum UTCTime {
    static let millisecondsPerDay = 86_400_000

    /// `2026-11-30T03:15:22.123Z` for milliseconds since 1970-01-01 UTC (negative: before).
    static func iso8601(milliseconds: Int) -> String {
        // Floor division, so an instant before 1970 falls in the day before, not after.
        let (quotient, remainder) = milliseconds.quotientAndRemainder(dividingBy: millisecondsPerDay)
        let days = remainder < 0 ? quotient - 1 : quotient
        let inDay = remainder < 0 ? remainder + millisecondsPerDay : remainder
        let date = civil(fromDays: days)
        let seconds = inDay / 1000
        let year = date.year < 0 ? "-" + digits(-date.year, 4) : digits(date.year, 4)
        return "\(year)-\(digits(date.month, 2))-\(digits(date.day, 2))"
            + "T\(digits(seconds / 3600, 2)):\(digits(seconds / 60 % 60, 2)):\(digits(seconds % 60, 2))"
            + ".\(digits(inDay % 1000, 3))Z"
    }

    /// The proleptic Gregorian date `days` after 1970-01-01: Howard Hinnant's
    /// `civil_from_days`, which counts in 400-year eras starting on 1 March so that
    /// the leap day falls at the end of each year.
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468  // days from 0000-03-01 to 1970-01-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097  // 0...146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365  // 0...399
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // 0...365, from 1 March
        let monthFromMarch = (5 * dayOfYear + 2) / 153  // 0...11
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// `value` with leading zeros to `count` digits.
    private static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }
}
