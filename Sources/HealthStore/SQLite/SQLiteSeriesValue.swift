import Foundation

/// One value of a quantity series row (`sample_series`, migration v13; docs/health-store.md, "Heart-rate series"):
/// what a sensor's heart-rate sample holds beyond what its row shares with the other values (type, source, device,
/// person, sensor contact) — its time, its change sequence, beats per minute, energy expended and RR intervals.
struct SQLiteSeriesValue: Equatable {
    var micros: Int64
    var seq: Int64
    var beatsPerMinute: UInt16
    var energy: UInt16?
    var rrIntervals: [UInt16]

    /// The metadata keys a series row holds for all its values.
    static let rowKeys: [MetadataKey] = [.personIdentifier, .heartRateSensorContact]

    /// The series value of `sample`, when it is a sensor's value as the daemon stores it and nothing more — a heart
    /// rate in whole beats per minute at an instant, of a device, without a time zone, its sync identifier its series'
    /// prefix and its time in microseconds, version 1, its UUID ``Foundation/UUID/sensorValue(syncIdentifier:at:)``,
    /// its metadata sensor contact, energy, RR intervals and person only — so that reading it back gives the same
    /// sample; any other sample is stored in a row of its own. `prefix` is its sync identifier without the time.
    init?(_ sample: QuantitySample, seq: Int64) {
        guard sample.type.identifier == QuantityType.heartRate.identifier, sample.sharedDevice != nil,
              sample.timeZoneIdentifier == nil, sample.metadata.syncVersion == 1,
              let value = UInt16(exactly: sample.quantity.value) else { return nil }
        let micros = SQLiteCoding.micros(sample.startDate)
        guard SQLiteCoding.micros(sample.endDate) == micros, let prefix = Self.prefix(sample.metadata.syncIdentifier, micros),
              sample.uuid == UUID.sensorValue(syncIdentifier: prefix + String(micros), micros: micros) else { return nil }
        var energy: UInt16?
        var rr: [UInt16] = []
        for (key, entry) in sample.metadata.entries {
            switch (key, entry) {
            case (MetadataKey.energyExpended.name, .integer(let v)):
                guard let e = UInt16(exactly: v) else { return nil }
                energy = e
            case (MetadataKey.rrIntervals.name, .string(let text)):
                let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { UInt16($0) }
                guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
                rr = parts.map { $0! }
                guard Self.text(rr) == text else { return nil }
            case (MetadataKey.personIdentifier.name, .string), (MetadataKey.heartRateSensorContact.name, .integer):
                continue
            default:
                return nil
            }
        }
        self.init(micros: micros, seq: seq, beatsPerMinute: value, energy: energy, rrIntervals: rr)
    }

    init(micros: Int64, seq: Int64, beatsPerMinute: UInt16, energy: UInt16?, rrIntervals: [UInt16]) {
        self.micros = micros
        self.seq = seq
        self.beatsPerMinute = beatsPerMinute
        self.energy = energy
        self.rrIntervals = rrIntervals
    }

    /// `syncIdentifier` without its last part, when that is `micros` in decimal.
    static func prefix(_ syncIdentifier: String?, _ micros: Int64) -> String? {
        guard let syncIdentifier, let colon = syncIdentifier.lastIndex(of: ":"),
              syncIdentifier[syncIdentifier.index(after: colon)...] == String(micros) else { return nil }
        return String(syncIdentifier[...colon])
    }

    /// The RR intervals as ``MetadataKey/rrIntervals`` holds them.
    static func text(_ rr: [UInt16]) -> String { rr.map(String.init).joined(separator: ",") }

    /// The entries of a row's `metadata` column (a flat JSON object or nil) without its braces, once for all its values'
    /// ``metadataJSON(_:)``: nil when it has none.
    static func sharedFields(_ shared: String?) -> Substring? {
        guard let shared, shared.utf8.count > 2 else { return nil }
        return shared.dropFirst().dropLast()
    }

    /// The value's metadata as JSON: its own entries and its row's, `sharedFields` (``sharedFields(_:)``), written as
    /// text, not decoded and encoded again (its keys then not sorted, which nothing needs). The RR intervals are digits
    /// and commas, so nothing in them needs escaping. Appended piece by piece: it is made once for every value read.
    func metadataJSON(_ sharedFields: Substring?) -> String? {
        guard energy != nil || !rrIntervals.isEmpty || sharedFields != nil else { return nil }
        var out = "{"
        if let energy {
            out += "\"\(MetadataKey.energyExpended.name)\":"
            out += String(energy)
        }
        if !rrIntervals.isEmpty {
            if out.utf8.count > 1 { out += "," }
            out += "\"\(MetadataKey.rrIntervals.name)\":\""
            for (index, interval) in rrIntervals.enumerated() {
                if index > 0 { out += "," }
                out += String(interval)
            }
            out += "\""
        }
        if let sharedFields {
            if out.utf8.count > 1 { out += "," }
            out += sharedFields
        }
        return out + "}"
    }

    // MARK: The series blob

    /// The values of a series row as its `series_values` blob: each value as unsigned LEB128 varints — its time after the
    /// previous value's (the first's after the row's `start_at`), its change sequence after the previous one's (the
    /// first's after `first_seq`), beats per minute, energy plus one (0 for none), the number of RR intervals and each
    /// interval. About ten bytes a value of a strap at 1 Hz. `values` are in time order.
    static func encode(_ values: [SQLiteSeriesValue]) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 12)
        guard var lastMicros = values.first?.micros, var lastSeq = values.first?.seq else { return Data() }
        for value in values {
            for field in [UInt64(value.micros - lastMicros), UInt64(value.seq - lastSeq), UInt64(value.beatsPerMinute),
                          value.energy.map { UInt64($0) + 1 } ?? 0, UInt64(value.rrIntervals.count)] + value.rrIntervals.map(UInt64.init) {
                var rest = field
                while rest >= 0x80 {
                    out.append(UInt8(rest & 0x7F) | 0x80)
                    rest >>= 7
                }
                out.append(UInt8(rest))
            }
            (lastMicros, lastSeq) = (value.micros, value.seq)
        }
        return Data(out)
    }

    /// The values of the blob `data` of a row starting at `startMicros`, its first change `firstSeq`; a malformed blob
    /// ends at its last whole value.
    static func decode(_ data: Data, startMicros: Int64, firstSeq: Int64) -> [SQLiteSeriesValue] {
        var values: [SQLiteSeriesValue] = []
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var index = 0
            func next() -> UInt64? {
                var result: UInt64 = 0
                var shift: UInt64 = 0
                while index < bytes.count, shift < 64 {
                    let byte = bytes[index]
                    index += 1
                    result |= UInt64(byte & 0x7F) << shift
                    if byte < 0x80 { return result }
                    shift += 7
                }
                return nil
            }
            var micros = startMicros, seq = firstSeq
            while index < bytes.count {
                guard let dt = next(), let ds = next(), let bpm = next(), let energy = next(), let count = next(),
                      let value = UInt16(exactly: bpm), count <= 0xFFFF else { return }
                var rr: [UInt16] = []
                for _ in 0 ..< count {
                    guard let interval = next(), let r = UInt16(exactly: interval) else { return }
                    rr.append(r)
                }
                micros += Int64(truncatingIfNeeded: dt)
                seq += Int64(truncatingIfNeeded: ds)
                values.append(SQLiteSeriesValue(
                    micros: micros, seq: seq, beatsPerMinute: value, energy: energy == 0 ? nil : UInt16(truncatingIfNeeded: energy - 1),
                    rrIntervals: rr))
            }
        }
        return values
    }
}
