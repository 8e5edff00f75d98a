import BlueZ
import DBus
import Gateway
import GATTHealth
import HealthStore

/// `org.cuffd.Cuff1`: one cuff, properties only, each change announced with `PropertiesChanged` so `cuffctl
/// start` draws cuff pressure as it comes (docs/dbus-api.md).
enum CuffObject {
    static func interface(_ status: CuffStatus) -> DBusInterface {
        DBusInterface(ControlAPI.cuffInterfaceName, properties: properties(status).sorted { $0.key < $1.key }.map { .init($0.key, $0.value) })
    }

    static func properties(_ status: CuffStatus) -> [String: DBusValue] {
        var values: [String: DBusValue] = [
            "Address": .string(status.address.description), "Name": .string(status.name ?? ""),
            "Paired": .boolean(status.paired), "Trusted": .boolean(status.trusted), "Connected": .boolean(status.connected),
            "CanStart": .boolean(status.canStart),
            "Manufacturer": .string(status.identity?.manufacturer ?? ""), "Model": .string(status.identity?.model ?? ""),
            "Serial": .string(status.identity?.serial ?? ""),
            "LastReading": .double(status.lastReadingAt?.timeIntervalSince1970 ?? 0),
            "BatteryLevel": .int32(status.batteryLevel.map(Int32.init) ?? -1), "BatteryLow": .boolean(status.batteryLow),
            "ClockOffset": .double(status.clockOffset.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 } ?? 0),
        ]
        values.merge(stateProperties(status.state)) { _, new in new }
        return values
    }

    /// `State` (`discovered`, `connecting`, `resolving`, `subscribed`, `measuring`, `disconnected`) and
    /// `CuffPressure` (mmHg while measuring, else 0).
    static func stateProperties(_ state: SessionState) -> [String: DBusValue] {
        switch state {
        case .discovered: ["State": .string("discovered"), "CuffPressure": .double(0)]
        case .connecting: ["State": .string("connecting"), "CuffPressure": .double(0)]
        case .resolving: ["State": .string("resolving"), "CuffPressure": .double(0)]
        case .subscribed: ["State": .string("subscribed"), "CuffPressure": .double(0)]
        case let .measuring(pressure, unit):
            ["State": .string("measuring"), "CuffPressure": .double(millimetresOfMercury(pressure.doubleValue, unit))]
        case .disconnected: ["State": .string("disconnected"), "CuffPressure": .double(0)]
        }
    }
}

/// A pressure in the cuff's unit as mmHg, converted by HealthStore's exact factor (1 mmHg = 133.322387415 Pa).
func millimetresOfMercury(_ value: Double, _ unit: PressureUnit) -> Double {
    guard unit == .kilopascals else { return value }
    return (try? HealthQuantity(unit: .kilopascal, doubleValue: value).doubleValue(for: .millimeterOfMercury)) ?? value
}
