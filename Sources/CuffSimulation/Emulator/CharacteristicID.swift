import GATTHealth

/// A characteristic an emulated cuff exposes: one with a SIG-assigned 16-bit number, or QardioArm's
/// vendor control point, known only by its 128-bit UUID (docs/reference/GATT-HEALTH.md §12).
enum CharacteristicID: Hashable, Sendable {
    case assigned(HealthCharacteristic)
    case qardioArmControl
    /// Omron's transmit channel 0–3, receive channel 0–3, and unlock characteristic (docs/omron.md §1).
    case omronTransmit(Int)
    case omronReceive(Int)
    case omronUnlock
    /// A&D's command characteristic (docs/reference/GATT-HEALTH.md §13.8).
    case aAndDCommand
    /// Microlife's answer and command characteristics, 0xFFF1 and 0xFFF2 (docs/reference/GATT-HEALTH.md §13.12).
    case microlifeNotify
    case microlifeCommand
    /// The characteristic at this position in a recorded cuff's database (docs/cuff-sim.md, "Recorded cuffs"), with its
    /// `UUID`: a recorded database may hold one UUID twice.
    case recorded(Int, uuid: String)

    /// The `UUID` property, lower case, as bluetoothd exports it.
    var uuid: String {
        switch self {
        case .assigned(let characteristic): characteristic.uuid
        case .qardioArmControl: QardioArmControlPoint.uuid
        case .omronTransmit(let channel): OmronService.transmitChannels[channel]
        case .omronReceive(let channel): OmronService.receiveChannels[channel]
        case .omronUnlock: OmronService.unlock
        case .aAndDCommand: AAndDService.command
        case .microlifeNotify: MicrolifeService.notify
        case .microlifeCommand: MicrolifeService.command
        case .recorded(_, let uuid): uuid
        }
    }

    /// How the log names it: `0x2A35`, `QardioArm control`.
    var label: String {
        switch self {
        case .assigned(let characteristic): "0x" + characteristic.shortUUID
        case .qardioArmControl: "QardioArm control"
        case .omronTransmit(let channel): "Omron TX\(channel)"
        case .omronReceive(let channel): "Omron RX\(channel)"
        case .omronUnlock: "Omron unlock"
        case .aAndDCommand: "A&D command"
        case .microlifeNotify: "Microlife 0xFFF1"
        case .microlifeCommand: "Microlife 0xFFF2"
        case .recorded(_, let uuid): BluetoothUUID.shortNumber(uuid) == nil ? uuid : "0x" + BluetoothUUID.compact(uuid)
        }
    }
}
