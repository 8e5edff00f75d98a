import GATTHealth

/// The rules of an Omron cuff that JSON types cannot state (docs/cuff-sim.md, "Format").
extension OmronSpec {
    func validate(path: String) throws(ScenarioError) {
        guard users.count <= model.users else {
            throw ScenarioError(path: path + ".users", message: "\(model.name) has \(model.users) user(s), not \(users.count)")
        }
        guard !refusesToken || model.stack == .modern(tokenUnlock: true) else {
            throw ScenarioError(path: path + ".refusesToken", message: "\(model.name) has no token unlock (docs/omron.md §2)")
        }
        guard corruptReads >= 0 else { throw ScenarioError(path: path + ".corruptReads", message: "must be 0 or more") }
        guard clock == nil || model.clock != nil else {
            throw ScenarioError(path: path + ".clock", message: "the clock of \(model.name) is not known (docs/omron.md §4a)")
        }
        for (index, user) in users.enumerated() {
            let userPath = path + ".users[\(index)]"
            guard (0 ..< model.slotsPerUser).contains(user.firstSlot) else {
                throw ScenarioError(path: userPath + ".firstSlot", message: "must be a slot from 0 to \(model.slotsPerUser - 1)")
            }
            guard user.records.count <= model.slotsPerUser else {
                throw ScenarioError(path: userPath + ".records", message: "\(model.name) holds \(model.slotsPerUser) records per user")
            }
            guard (0 ... user.records.count).contains(user.read) else {
                throw ScenarioError(path: userPath + ".read", message: "must be 0 to the number of records (\(user.records.count))")
            }
            for (slot, record) in user.records.enumerated() {
                try Self.validate(record, layout: model.layout, path: userPath + ".records[\(slot)]")
            }
        }
    }

    /// A record's fields must fit the layout (docs/omron.md §5), raw bytes must be one slot long.
    static func validate(_ slot: OmronSlotSpec, layout: OmronRecordLayout, path: String) throws(ScenarioError) {
        switch slot {
        case .raw(let hex):
            guard hex.bytes.count == layout.size else {
                throw ScenarioError(path: path + ".hex", message: "a slot is \(layout.size) bytes, not \(hex.bytes.count)")
            }
        case .record(let record):
            let years: ClosedRange<UInt16> = if case .bigEndianPacked14(8, _) = layout { 2000 ... 2255 } else { 2000 ... 2063 }
            guard (25 ... 280).contains(record.systolic) else {
                throw ScenarioError(path: path + ".systolic", message: "must be 25 to 280 mmHg (stored as systolic − 25 in a byte)")
            }
            guard record.position <= 3 else {
                throw ScenarioError(path: path + ".position", message: "must be 0 to 3 (two bits, docs/omron.md §5)")
            }
            guard years.contains(record.time.year) else {
                throw ScenarioError(path: path + ".time", message: "the year must be \(years.lowerBound) to \(years.upperBound)")
            }
        }
    }
}
