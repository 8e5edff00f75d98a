import Foundation
import HealthStore

/// A reading's place in the order of `Readings` (docs/dbus-api.md, "Paging"), as the text a client passes
/// back in `before` or `after`: the measurement time in microseconds since 1970, a colon, and the reading's
/// UUID. Clients treat it as opaque.
public enum ReadingCursor {
    public static func text(_ position: SamplePosition) -> String {
        String(Int64((position.startDate.timeIntervalSince1970 * 1_000_000).rounded())) + ":" + uppercase(position.uuid)
    }

    /// `uuid` as `UUID.uuidString` writes it — 8-4-4-4-12 upper-case hexadecimal digits —, written
    /// into the string's own storage: Foundation's goes through a C string, and every reading of a page carries a
    /// cursor (4 % of cuffd's CPU for a page of `ChangeColumns` went to `uuidString`, Benchmarks/RESULTS.md, "The
    /// feed's page in one statement").
    static func uppercase(_ uuid: UUID) -> String {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10 }
                var end = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[end] = UInt8(ascii: "-")
                        end += 1
                    }
                    text[end] = digit(byte >> 4)
                    text[end + 1] = digit(byte & 0x0F)
                    end += 2
                }
                return end
            }
        }
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
