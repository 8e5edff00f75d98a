import GATTHealth

/// A Microlife cuff's users and memory (`"vendor": "microlife"`; docs/reference/GATT-HEALTH.md §13.12): the user selected
/// on the cuff, the two patient IDs, and the readings it sends, in the order it sends them, on every *get readings*.
public struct MicrolifeSpec: Decodable, Sendable, Equatable {
    /// 1 or 2; default 1.
    public var selectedUser: UInt8
    /// User 1's and user 2's ID, up to 20 printable ASCII characters each; default none.
    public var patientIDs: [String]
    public var readings: [MicrolifeReading]

    enum CodingKeys: String, CodingKey, CaseIterable { case selectedUser, patientIDs, readings }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        selectedUser = try container.decodeInteger(UInt8.self, forKey: .selectedUser) ?? 1
        patientIDs = try container.decodeIfPresent([String].self, forKey: .patientIDs) ?? ["", ""]
        readings = try container.decodeIfPresent([Reading].self, forKey: .readings)?.map(\.record) ?? []
    }

    /// What *get patient IDs* answers.
    public var ids: MicrolifePatientIDs {
        MicrolifePatientIDs(selectedUser: selectedUser, user1: patientIDs.first ?? "", user2: patientIDs.dropFirst().first ?? "")
    }

    /// One reading: `{"systolic": 130, "diastolic": 81, "pulse": 90, "time": "2026-05-16T16:29:00"}`, to the minute.
    struct Reading: Decodable {
        let record: MicrolifeReading

        enum CodingKeys: String, CodingKey, CaseIterable { case systolic, diastolic, pulse, time }

        init(from decoder: any Decoder) throws {
            try decoder.refuseUnknownKeys(CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let text = try container.decode(String.self, forKey: .time)
            guard let time = ClockSpec.dateTime(text), time.seconds == 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .time, in: container, debugDescription: "\"\(text)\" is not a calendar time to the minute like 2026-05-16T16:29:00")
            }
            do {
                record = try MicrolifeReading(
                    systolic: try container.decode(UInt8.self, forKey: .systolic), diastolic: try container.decode(UInt8.self, forKey: .diastolic),
                    pulse: try container.decode(UInt8.self, forKey: .pulse), time: time)
            } catch let error as MicrolifeError {
                throw DecodingError.dataCorruptedError(forKey: .time, in: container, debugDescription: error.description)
            }
        }
    }
}

extension MicrolifeSpec {
    /// Checks what JSON types cannot: a selected user of 1 or 2, and two patient IDs a cuff can hold.
    func validate(path: String) throws(ScenarioError) {
        guard selectedUser == 1 || selectedUser == 2 else {
            throw ScenarioError(path: path + ".selectedUser", message: "\(selectedUser) is not 1 or 2")
        }
        guard patientIDs.count == 2 else {
            throw ScenarioError(path: path + ".patientIDs", message: "needs two IDs, user 1's and user 2's (\"\" for none)")
        }
        for (index, id) in patientIDs.enumerated() where (try? MicrolifeCommand.setPatientID(id)) == nil {
            throw ScenarioError(path: path + ".patientIDs[\(index)]", message: MicrolifeError.invalidPatientID(id).description)
        }
    }
}
