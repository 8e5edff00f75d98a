import Foundation
import HealthStore

/// A reading's place in the order of `Readings` (docs/dbus-api.md, "Paging"), as the text a client passes
/// back in `before` or `after`: the measurement time in microseconds since 1970, a colon, and the reading's
/// UUID. Clients treat it as opaque.
public enum ReadingCursor {
    public static func text(_ position: SamplePosition) -> String {
        "\(Int64((position.startDate.timeIntervalSince1970 * 1_000_000).rounded())):\(position.uuid.uuidString)"
    }

    /// The position a cursor names; nil for text that is not a cursor.
    public static func position(_ text: String) -> SamplePosition? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let micros = Int64(parts[0]), let uuid = UUID(uuidString: String(parts[1])) else { return nil }
        let date = Date(timeIntervalSince1970: Double(micros) / 1_000_000)
        guard SamplePredicate.supportedDates.contains(date) else { return nil }
        return SamplePosition(startDate: date, uuid: uuid)
    }
}
