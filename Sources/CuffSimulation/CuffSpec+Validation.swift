import GATTHealth

/// The rules of a cuff that JSON types cannot state (docs/cuff-sim.md, "Format").
extension CuffSpec {
    /// Checks that values decode as their characteristics, times do not go back, and each field has the
    /// service it needs; throws with the JSON path of the first field that breaks a rule.
    func validate(path: String) throws(ScenarioError) {
        if let recorded { return try recorded.validate(path: path + ".recorded") }
        guard services.contains(.bloodPressure) || services.contains(.heartRate) || [.omron, .omronModern, .microlife].contains(vendor) else {
            throw ScenarioError(
                path: path + ".services",
                message: "a cuff needs 1810 or 180D, or a vendor's service (\"vendor\": \"omron\", \"omronModern\" or \"microlife\")")
        }
        guard (vendor == .microlife) == (microlife != nil) else {
            throw ScenarioError(path: path + (microlife == nil ? ".vendor" : ".microlife"), message: "\"vendor\": \"microlife\" and a \"microlife\" object go together")
        }
        try microlife?.validate(path: path + ".microlife")
        guard (vendor == .omron || vendor == .omronModern) == (omron != nil) else {
            throw ScenarioError(path: path + (omron == nil ? ".vendor" : ".omron"), message: "\"vendor\": \"omron\" or \"omronModern\" and an \"omron\" object go together")
        }
        if let omron, (vendor == .omronModern) != (omron.model.stack != .classic) {
            let service = vendor == .omronModern ? "0xFE4A" : "ecbe3980"
            throw ScenarioError(path: path + ".omron.model", message: "\(omron.model.name) does not speak Omron's service \(service) (docs/omron.md §4)")
        }
        try omron?.validate(path: path + ".omron")
        let feature = try decoded(BloodPressureFeature.self, self.feature, path: path + ".feature")
        for (index, record) in storedRecords.enumerated() {
            _ = try decoded(BloodPressureMeasurement.self, record, path: path + ".storedRecords[\(index)]")
        }
        try validateSteps(timeline, path: path + ".timeline")
        try validateRecords(feature: feature, path: path)
        try require(.currentTime, for: clock?.characteristic == .currentTime, path: path + ".clock")
        try require(.bloodPressure, for: clock?.characteristic == .dateTime, path: path + ".clock.characteristic")
        try require(.bloodPressure, for: vendor == .qardioArm || vendor == .aAndD, path: path + ".vendor")
        guard !switchesOffOnRecordRequest || records != nil else {
            throw ScenarioError(path: path + ".switchesOffOnRecordRequest", message: "needs records")
        }
        guard !forgetsBondAfterLink || pairing != .none else {
            throw ScenarioError(path: path + ".forgetsBondAfterLink", message: "needs a cuff that pairs (\"pairing\": \"justWorks\" or a passkey)")
        }
        guard aAndD == nil || vendor == .aAndD else {
            throw ScenarioError(path: path + ".aAndD", message: "needs \"vendor\": \"aAndD\"")
        }
        guard onStart.isEmpty || vendor == .qardioArm else {
            throw ScenarioError(path: path + ".onStart", message: "needs a vendor protocol that can start a measurement (\"vendor\": \"qardioArm\")")
        }
        try validateSteps(onStart, path: path + ".onStart")
        if let index = onStart.firstIndex(where: { $0.action == .pressStart }) {
            throw ScenarioError(path: path + ".onStart[\(index)]", message: "the start command began this script: START is pressed in a timeline")
        }
    }

    /// The services the cuff advertises (Device1 `UUIDs`): its SIG services, Omron's or Microlife's when it speaks it, and
    /// A&D's in cooperation mode.
    public var advertisedUUIDs: [String] {
        recorded?.uuids
            ?? services.map(\.uuid) + (omron.map { [$0.model.stack.serviceUUID] } ?? [])
            + (aAndD?.cooperationMode == true ? [AAndDService.uuid] : []) + (microlife == nil ? [] : [MicrolifeService.uuid])
    }

    /// `hex` decoded as `type`, or the decoder's reason at `path`.
    private func decoded<Value: GATTCharacteristicValue>(_ type: Value.Type, _ hex: HexValue, path: String) throws(ScenarioError) -> Value {
        do {
            return try Value(decoding: hex.bytes)
        } catch {
            throw ScenarioError(path: path, message: error.description)
        }
    }

    private func require(_ service: HealthService, for present: Bool, path: String) throws(ScenarioError) {
        guard !present || services.contains(service) else {
            throw ScenarioError(path: path, message: "needs service \(Hex.digits(service.rawValue))")
        }
    }

    /// Steps in non-decreasing time, each naming a characteristic the cuff has.
    private func validateSteps(_ steps: [TimelineStep], path: String) throws(ScenarioError) {
        let exposed = Set(GattLayout.declarations(of: self).map(\.id))
        var previous = 0.0
        for (index, step) in steps.enumerated() {
            let stepPath = path + "[\(index)]"
            try ScenarioError.checkTimeOrder(step.after, previous: &previous, path: stepPath)
            if case let .measure(user, slot) = step.action {
                guard let omron else { throw ScenarioError(path: stepPath + ".measure", message: "needs \"vendor\": \"omron\" or \"omronModern\"") }
                guard (1 ... omron.model.users).contains(user) else {
                    throw ScenarioError(path: stepPath + ".user", message: "\(omron.model.name) has users 1 to \(omron.model.users)")
                }
                try OmronSpec.validate(slot, layout: omron.model.layout, path: stepPath + ".measure")
            }
            if let characteristic = step.action.characteristic, !exposed.contains(.assigned(characteristic)) {
                throw ScenarioError(path: stepPath, message: "0x\(characteristic.shortUUID) is not a characteristic this cuff has")
            }
        }
    }

    /// BPS 1.1 records: 0x2B34 values with unique sequence numbers; a User Facing Time only where the
    /// Feature announces it (bit 8, docs/reference/GATT-HEALTH.md §6); segments big enough for the 5-byte first header.
    private func validateRecords(feature: BloodPressureFeature, path: String) throws(ScenarioError) {
        if let size = recordSegmentSize {
            guard records != nil else {
                throw ScenarioError(path: path + ".recordSegmentSize", message: "needs records")
            }
            guard (6 ... GattLayout.attPayload).contains(size) else {
                throw ScenarioError(path: path + ".recordSegmentSize", message: "must be 6 to \(GattLayout.attPayload) bytes")
            }
        }
        guard let records else { return }
        try require(.bloodPressure, for: true, path: path + ".records")
        var sequences: Set<UInt16> = []
        for (index, record) in records.enumerated() {
            let recordPath = path + ".records[\(index)]"
            guard sequences.insert(record.sequence).inserted else {
                throw ScenarioError(path: recordPath + ".sequence", message: "\(record.sequence) is used twice")
            }
            let measurement = try decoded(EnhancedBloodPressureMeasurement.self, record.value, path: recordPath + ".hex")
            guard measurement.userFacingTime == nil || feature.contains(.userFacingTime) else {
                throw ScenarioError(path: recordPath + ".hex", message: "carries a User Facing Time, but feature bit 8 (User Facing Time) is clear")
            }
        }
    }
}
