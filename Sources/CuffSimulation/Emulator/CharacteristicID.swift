import GATTHealth

/// A characteristic an emulated cuff exposes: one with a SIG-assigned 16-bit number, or QardioArm's
/// vendor control point, known only by its 128-bit UUID (docs/reference/GATT-HEALTH.md §12).
enum CharacteristicID: Hashable, Sendable {
    case assigned(HealthCharacteristic)
    case qardioArmControl

    /// The `UUID` property, lower case, as bluetoothd exports it.
    var uuid: String {
        switch self {
        case .assigned(let characteristic): characteristic.uuid
        case .qardioArmControl: QardioArmControlPoint.uuid
        }
    }

    /// How the log names it: `0x2A35`, `QardioArm control`.
    var label: String {
        switch self {
        case .assigned(let characteristic): "0x" + characteristic.shortUUID
        case .qardioArmControl: "QardioArm control"
        }
    }
}
