/// The proleptic Gregorian calendar (ISO 8601's; the Bluetooth Date Time characteristic's) by arithmetic: days
/// counted from 0000-03-01 in 400-year eras of 146 097 days, with the year starting in March so that the leap
/// day falls last. Valid for the years 1–9999 that time stamps and ISO 8601 dates here carry.
public enum ProlepticGregorian {
    /// Days from 0000-03-01 to 1970-01-01.
    public static let unixEpochDay = 719_468

    /// Days from 0000-03-01 to `year`-`month`-`day`.
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = marchYear / 400
        let yearOfEra = marchYear - era * 400
        let marchMonth = (month + 9) % 12
        let dayOfYear = (153 * marchMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra
    }

    /// The date `days` after 0000-03-01 (`days` ≥ 0), the inverse of ``days(year:month:day:)``.
    public static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let era = days / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
