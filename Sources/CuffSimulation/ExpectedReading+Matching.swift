import BlueZ
import GATTHealth

extension ExpectedReading: CustomStringConvertible {
    /// A reading cuffd stored, in the expectation's terms — from the Gateway's `Reading` or the store's
    /// `ReadingRecord`, whichever a test holds — to be matched against a scenario's: its status always given
    /// (none sent counts as no bit set).
    public init(
        stored address: BluetoothAddress, systolic: Double, diastolic: Double, pulseRate: Double?, userID: UInt8?, deviceTime: String?,
        status: BloodPressureMeasurementStatus?
    ) {
        (self.address, self.systolic, self.diastolic, self.pulseRate) = (address, systolic, diastolic, pulseRate)
        (self.userID, self.deviceTime, self.status) = (userID, deviceTime, status ?? BloodPressureMeasurementStatus(rawValue: 0))
    }

    /// Whether the stored reading `stored` is this one: every field equal, and its status bits exactly those
    /// named, when this one names them.
    public func matches(_ stored: ExpectedReading) -> Bool {
        address == stored.address && systolic == stored.systolic && diastolic == stored.diastolic && pulseRate == stored.pulseRate
            && userID == stored.userID && deviceTime == stored.deviceTime && (status == nil || status == stored.status)
    }

    /// The fields in one line, the status names last (left out when not checked).
    public var description: String {
        "\(address) \(systolic)/\(diastolic) p\(pulseRate.map { "\($0)" } ?? "-") u\(userID.map(String.init) ?? "-") @\(deviceTime ?? "unknown")"
            + (status.map { " \($0.names)" } ?? "")
    }
}

extension ScenarioExpectation {
    /// The expected readings `stored` lacks and the stored readings nothing expected, each reading matched once.
    /// Those whose expectation names a status are matched first: one without can then take any stored reading
    /// of the same values, so no pairing that exists is missed.
    public func unmatched(_ stored: [ExpectedReading]) -> (missing: [ExpectedReading], unexpected: [ExpectedReading]) {
        var left = stored
        var missing: [ExpectedReading] = []
        for expected in readings.filter({ $0.status != nil }) + readings.filter({ $0.status == nil }) {
            if let index = left.firstIndex(where: expected.matches) { left.remove(at: index) } else { missing.append(expected) }
        }
        return (missing, left)
    }
}
