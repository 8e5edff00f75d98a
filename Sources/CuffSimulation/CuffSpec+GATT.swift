import BlueZ

/// A characteristic of an emulated cuff as whoever hosts the cuff exposes it: cuff-sim's bluetoothd over D-Bus, or an
/// in-memory central in the Gateway's tests (docs/gateway.md, "Seams").
public struct CuffCharacteristic: Sendable, Equatable {
    /// `UUID`, lower-case 128-bit.
    public let uuid: String
    /// The `UUID` of its service.
    public let serviceUUID: String
    /// `Flags` (`doc/gatt-api.txt`).
    public let flags: [String]
    /// What a read returns before anything changed it.
    public let value: [UInt8]
}

extension CuffSpec {
    /// The cuff's characteristics, service by service, as its GATT database lays them out (``GattLayout``).
    public var characteristics: [CuffCharacteristic] {
        GattLayout(spec: self, devicePath: try! Bluez.adapterPath.appending(address.objectPathElement)).services.flatMap { service in
            service.characteristics.map { CuffCharacteristic(uuid: $0.id.uuid, serviceUUID: service.uuid, flags: $0.flags, value: $0.initialValue) }
        }
    }
}
