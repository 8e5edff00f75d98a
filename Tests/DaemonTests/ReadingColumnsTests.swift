import DBus
import ReadingColumns
import Testing

/// A page of readings as columns (docs/dbus-api.md, "Columns") reads back as the readings it was made of, and a page
/// cuffd would never send is refused with what is wrong.
@Suite("ReadingColumns: pages as columns")
struct ReadingColumnsTests {
    static let cuff = ["address": "C4:F3:12:53:F2:C9", "name": "BP-1", "serial": "0001"]
    static let strap = ["address": "E8:3C:A1:07:6D:21"]

    static let records = [
        ReadingRecord(
            systolic: 118, diastolic: 76, meanArterialPressure: 90, pulseRate: 66, time: 1_773_000_000.25,
            deviceTime: "2026-03-08T21:00:00", device: cuff, userID: 1, person: "alice", status: 0x0024,
            syncIdentifier: "C4F312-1-1", syncVersion: 2, cursor: "1773000000250000:5E0C"),
        ReadingRecord(systolic: 131.5, diastolic: 85, time: 1_773_000_060, device: strap, syncIdentifier: "E83CA1-1", cursor: "c2"),
        ReadingRecord(systolic: 120, diastolic: 80, time: 1_773_000_120, device: cuff, userID: 0, status: 0, syncIdentifier: "C4F312-0-3"),
    ]

    @Test("Readings read back as written: absent values absent, each device once")
    func roundTrip() throws {
        let page = ReadingColumns.properties(Self.records)
        #expect(try ReadingColumns.records(page) == Self.records)
        #expect(try page["devices"]?.decode([[String: String]].self).count == 2)
        #expect(try ReadingColumns.records(ReadingColumns.properties([])) == [])
    }

    @Test("Columns of different lengths, a device out of range, a missing or mistyped column: refused, naming it")
    func malformedPages() {
        let page = ReadingColumns.properties(Self.records)
        var short = page
        short["pulseRate"] = DBusVariant(.doubles([66]))
        var unknownDevice = page
        unknownDevice["device"] = DBusVariant(.int64s([0, 1, 2]))
        var missing = page
        missing["syncIdentifier"] = nil
        var mistyped = page
        mistyped["systolic"] = DBusVariant(.array(.string, [.string("118")]))
        var badUser = page
        badUser["userID"] = DBusVariant(.int64s([1, -1, 256]))
        for (broken, named) in [(short, "pulseRate"), (unknownDevice, "device 2"), (missing, "syncIdentifier"), (mistyped, "systolic"), (badUser, "User ID")] {
            #expect(throws: ReadingColumnsError.self, "\(named)") { try ReadingColumns.records(broken) }
            do {
                _ = try ReadingColumns.records(broken)
            } catch {
                #expect(error.description.contains(named))
            }
        }
    }
}
