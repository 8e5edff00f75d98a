import BlueZ
import GATTHealth

/// What must be in cuffd's store after a scenario has run, whichever stack carried it (cuff-sim on a
/// private bus, or the real bluetoothd with an emulated cuff in the VM acceptance suite): every reading
/// exactly once, how many measurements the cuffs reported as failed (events, never samples), and how many
/// heart-rate samples the sensors' 0x2A37 values made.
public struct ScenarioExpectation: Decodable, Sendable, Equatable {
    /// The readings, in no particular order; each must be stored once, and nothing else.
    public var readings: [ExpectedReading]
    /// Measurements the cuffs reported as failed (all values NaN, docs/reference/GATT-HEALTH.md §13.5).
    public var failedMeasurements: Int
    /// Heart-rate samples stored: every 0x2A37 value but the malformed and the implausible ones, each once.
    public var heartRates: Int

    enum CodingKeys: String, CodingKey, CaseIterable { case readings, failedMeasurements, heartRates }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        readings = try container.decode([ExpectedReading].self, forKey: .readings)
        failedMeasurements = try container.decodeInteger(Int.self, forKey: .failedMeasurements) ?? 0
        heartRates = try container.decodeInteger(Int.self, forKey: .heartRates) ?? 0
    }
}

/// One reading as `cuffctl readings --json` reports it: the cuff, the values in mmHg and beats/min, the
/// cuff's User ID, its clock (`YYYY-MM-DDTHH:MM:SS`; nil when it sent none or an unknown one), and, when the
/// scenario names it, its Measurement Status.
public struct ExpectedReading: Decodable, Sendable, Hashable {
    public var address: BluetoothAddress
    public var systolic: Double
    public var diastolic: Double
    public var pulseRate: Double?
    public var userID: UInt8?
    public var deviceTime: String?
    /// The Measurement Status bits set, from `status`'s names (`BloodPressureMeasurementStatus.nameTable`; `[]` for
    /// none); nil when the scenario does not say, and then any status matches.
    public var status: BloodPressureMeasurementStatus?

    enum CodingKeys: String, CodingKey, CaseIterable { case address, systolic, diastolic, pulseRate, userID, deviceTime, status }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        address = try container.decode(BluetoothAddress.self, forKey: .address)
        systolic = try container.decode(Double.self, forKey: .systolic)
        diastolic = try container.decode(Double.self, forKey: .diastolic)
        pulseRate = try container.decodeIfPresent(Double.self, forKey: .pulseRate)
        userID = try container.decodeInteger(UInt8.self, forKey: .userID)
        deviceTime = try container.decodeIfPresent(String.self, forKey: .deviceTime)
        status = try container.decodeIfPresent([String].self, forKey: .status).map { names in
            if let status = BloodPressureMeasurementStatus(names: names) { return status }
            let known = BloodPressureMeasurementStatus.nameTable.map(\.name)
            let unknown = names.filter { !known.contains($0) }
            throw DecodingError.dataCorruptedError(
                forKey: .status, in: container,
                debugDescription: unknown.isEmpty
                    ? "\(names) cannot all be set at once (one Pulse Rate Range, each name once)"
                    : "\(unknown.map { "\"\($0)\"" }.joined(separator: ", ")) is not a status name; expected \(known.joined(separator: ", "))")
        }
    }
}
