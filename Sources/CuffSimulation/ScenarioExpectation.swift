import BlueZ

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
/// cuff's User ID and its clock (`YYYY-MM-DDTHH:MM:SS`; nil when it sent none or an unknown one).
public struct ExpectedReading: Decodable, Sendable, Hashable {
    public var address: BluetoothAddress
    public var systolic: Double
    public var diastolic: Double
    public var pulseRate: Double?
    public var userID: UInt8?
    public var deviceTime: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case address, systolic, diastolic, pulseRate, userID, deviceTime }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        address = try container.decode(BluetoothAddress.self, forKey: .address)
        systolic = try container.decode(Double.self, forKey: .systolic)
        diastolic = try container.decode(Double.self, forKey: .diastolic)
        pulseRate = try container.decodeIfPresent(Double.self, forKey: .pulseRate)
        userID = try container.decodeInteger(UInt8.self, forKey: .userID)
        deviceTime = try container.decodeIfPresent(String.self, forKey: .deviceTime)
    }
}
