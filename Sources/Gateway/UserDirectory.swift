/// Who stands behind each User ID of each cuff, as the configuration says. BPS User IDs are 0–254 and
/// 255 is "Unknown User", which is never mapped to a person (docs/reference/GATT-HEALTH.md §4, §13.3).
public struct UserDirectory: Sendable, Equatable {
    private var people: [String: [UInt8: String]]
    private var defaults: [String: String]

    public init() {
        people = [:]
        defaults = [:]
    }

    /// Maps `userID` of the cuff at `deviceKey` (a ``DeviceIdentity/stableKey`` or an address) to `person`.
    public mutating func assign(_ person: String, to userID: UInt8, of deviceKey: String) {
        precondition(userID != 255, "User ID 255 is the unknown user")
        people[deviceKey, default: [:]][userID] = person
    }

    /// The person for readings of a single-user cuff that sends no User ID.
    public mutating func assign(_ person: String, toReadingsWithoutUserOf deviceKey: String) {
        defaults[deviceKey] = person
    }

    /// The person behind `userID` on `device`, or nil when the configuration does not say.
    public func person(for userID: UInt8?, on device: DeviceIdentity) -> String? {
        let keys = [device.stableKey, device.address.description]
        guard let userID else { return keys.lazy.compactMap { defaults[$0] }.first }
        guard userID != 255 else { return nil }
        return keys.lazy.compactMap { people[$0]?[userID] }.first
    }
}
