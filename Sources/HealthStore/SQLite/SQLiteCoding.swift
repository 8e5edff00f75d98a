import Foundation

/// Value encodings of the SQLite engine: microsecond timestamps, UUID blobs, flat JSON objects for
/// metadata and devices (sorted keys, so equal devices encode equally and dedupe by `payload`).
enum SQLiteCoding {
    /// Microseconds since 1970, saturating at the ends of `Int64` (NaN as 0), so that no date traps here.
    /// The store refuses dates outside ``SamplePredicate/supportedDates`` before they reach SQL.
    static func micros(_ date: Date) -> Int64 {
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        if let exact = Int64(exactly: micros) { return exact }
        return micros.isNaN ? 0 : micros < 0 ? .min : .max
    }
    static func date(_ micros: Int64) -> Date { Date(timeIntervalSince1970: Double(micros) / 1_000_000) }

    static func blob(_ uuid: UUID) -> Data { withUnsafeBytes(of: uuid.uuid) { Data($0) } }
    static func uuid(_ data: Data) -> UUID {
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { $0.copyBytes(from: data.prefix(16)) }
        return UUID(uuid: raw)
    }

    /// Keys kept in their own columns (`sync_identifier`, `sync_version`), not in the JSON
    /// (``HealthMetadata`` holds them outside its entries): the members of one reading then share
    /// one JSON text, decoded once per query.
    static let columnKeys: Set<String> = [MetadataKey.syncIdentifier.name, MetadataKey.syncVersion.name]

    /// `json_extract(column, '$."Key"')`: the value of metadata `key` in the JSON text `column`, its path written into
    /// the SQL rather than bound, so that the planner can match it to an index on that expression (migration
    /// v7's `sample_type_person_start`).
    static func extract(_ key: String, from column: String) -> String {
        let path = "$.\"" + key.replacingOccurrences(of: "\"", with: "") + "\""
        return "json_extract(\(column), '" + path.replacingOccurrences(of: "'", with: "''") + "')"
    }

    /// Metadata minus ``columnKeys`` as a flat JSON object (sorted keys); dates as integer
    /// microseconds, bools as true/false.
    static func json(_ metadata: HealthMetadata) -> String? {
        let keys = metadata.entries.keys.sorted()
        guard !keys.isEmpty else { return nil }
        var out = "{"
        for (index, key) in keys.enumerated() {
            if index > 0 { out += "," }
            appendString(key, to: &out)
            out += ":"
            switch metadata.entries[key]! {
            case .string(let s): appendString(s, to: &out)
            case .integer(let i): out += String(i)
            case .double(let d): out += "\(d)"
            case .bool(let b): out += b ? "true" : "false"
            case .date(let d): out += String(micros(d))
            }
        }
        return out + "}"
    }

    /// Metadata from the column's JSON, keeping the keys `registry` knows with values of their kind. Decoded with
    /// `JSONSerialization`: a hand-written reader for this flat JSON measured no faster on the read path where
    /// every row's metadata differs (a day of heart-rate samples; docs/health-store.md, Benchmarks), and readers
    /// decode each distinct text once (``SQLiteRowDecoder``).
    static func metadata(_ json: String?, registry: [String: MetadataKey]) -> HealthMetadata {
        guard let json, let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            return HealthMetadata()
        }
        var values: [String: MetadataValue] = [:]
        for (name, raw) in object {
            guard let key = registry[name] else { continue }
            switch key.kind {
            case .string: if let s = raw as? String { values[name] = .string(s) }
            case .integer: if let n = raw as? NSNumber { values[name] = .integer(n.int64Value) }
            case .double: if let n = raw as? NSNumber { values[name] = .double(n.doubleValue) }
            case .bool: if let n = raw as? NSNumber { values[name] = .bool(n.boolValue) }
            case .date: if let n = raw as? NSNumber { values[name] = .date(date(n.int64Value)) }
            }
        }
        return HealthMetadata(values)
    }

    static func json(_ device: HealthDevice) -> String {
        let fields: [(String, String?)] = [
            ("deviceType", device.deviceType), ("firmwareVersion", device.firmwareVersion),
            ("hardwareVersion", device.hardwareVersion), ("identity", device.identity),
            ("localIdentifier", device.localIdentifier), ("manufacturer", device.manufacturer),
            ("model", device.model), ("name", device.name), ("serialNumber", device.serialNumber),
            ("softwareVersion", device.softwareVersion), ("udiDeviceIdentifier", device.udiDeviceIdentifier),
        ]
        var out = "{"
        var first = true
        for (key, value) in fields {
            guard let value else { continue }
            if !first { out += "," }
            first = false
            appendString(key, to: &out)
            out += ":"
            appendString(value, to: &out)
        }
        return out + "}"
    }

    static func device(_ json: String) -> HealthDevice? {
        guard let f = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String], let identity = f["identity"] else { return nil }
        return HealthDevice(
            identity: identity, deviceType: f["deviceType"], name: f["name"], manufacturer: f["manufacturer"],
            model: f["model"], serialNumber: f["serialNumber"], hardwareVersion: f["hardwareVersion"],
            firmwareVersion: f["firmwareVersion"], softwareVersion: f["softwareVersion"],
            localIdentifier: f["localIdentifier"], udiDeviceIdentifier: f["udiDeviceIdentifier"])
    }

    /// Appends `string` to `out` as a JSON string (RFC 8259 §7: `"`, `\\` and the control characters escaped).
    static func appendString(_ string: String, to out: inout String) {
        // Fast path: nothing to escape (the usual case for keys, identifiers and model names).
        if !string.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }) {
            out += "\""
            out += string
            out += "\""
            return
        }
        // Byte by byte: a series value's metadata is a JSON text kept in a JSON string, every quote of it escaped, and
        // appending it a Unicode scalar at a time was a quarter of cuffd's CPU while a forwarder read a day of heart
        // rate. Bytes of a multi-byte character are all 0x80 or above, and pass through as they are.
        var bytes: [UInt8] = [0x22]
        bytes.reserveCapacity(string.utf8.count + 16)
        for byte in string.utf8 {
            let escaped: UInt8? = switch byte {
            case 0x22, 0x5C: byte
            case 0x0A: 0x6E  // n
            case 0x0D: 0x72  // r
            case 0x09: 0x74  // t
            default: nil
            }
            if let escaped {
                bytes.append(0x5C)
                bytes.append(escaped)
            } else if byte < 0x20 {
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]])  // \u00XX
            } else {
                bytes.append(byte)
            }
        }
        bytes.append(0x22)
        out += String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
