import BlueZ
import GATTHealth

/// A cuff, strap or other device an ``EmbeddedCentral`` knows: what it advertises, how it pairs, its
/// characteristics and their values, and how it answers writes.
public struct EmbeddedPeripheral: Sendable {
    /// A characteristic and the value a read returns.
    public struct Characteristic: Sendable {
        public var uuid: String
        public var serviceUUID: String
        /// `read`, `write`, `write-without-response`, `notify`, `indicate` (`doc/gatt-api.txt`).
        public var flags: Set<String>
        public var value: [UInt8]

        public init(_ uuid: String, service: String, _ flags: Set<String>, value: [UInt8] = []) {
            self.uuid = uuid.lowercased()
            serviceUUID = service.lowercased()
            self.flags = flags
            self.value = value
        }

        /// A SIG-assigned characteristic of a SIG-assigned service.
        public init(_ characteristic: HealthCharacteristic, of service: HealthService, _ flags: Set<String>, value: [UInt8] = []) {
            self.init(characteristic.uuid, service: service.uuid, flags, value: value)
        }

        var canNotify: Bool { flags.contains("notify") || flags.contains("indicate") }
    }

    /// A descriptor beneath one of its characteristics (other than the Client Characteristic Configuration, which
    /// bluetoothd keeps), with what a read returns or why it fails.
    public struct Descriptor: Sendable {
        public var uuid: String
        /// The `UUID` of the characteristic it belongs to.
        public var characteristic: String
        public var flags: Set<String>
        public var value: [UInt8]
        public var readError: String?

        public init(_ uuid: String, of characteristic: String, _ flags: Set<String>, value: [UInt8] = [], readError: String? = nil) {
            self.uuid = uuid.lowercased()
            self.characteristic = characteristic.lowercased()
            self.flags = flags
            self.value = value
            self.readError = readError
        }
    }

    /// How the device pairs (docs/reference/BLUEZ-DBUS.md §5).
    public enum Pairing: Sendable {
        /// No pairing needed: notifications start on any link.
        case none
        /// Just Works: no agent question.
        case justWorks
        /// The device displays this key; the agent must type it (``PairingDelegate/passkey(for:)``).
        case passkey(UInt32)
    }

    /// What the device sends: a notification or indication of `uuid`.
    public struct Notification: Sendable {
        public var uuid: String
        public var bytes: [UInt8]

        public init(_ uuid: String, _ bytes: [UInt8]) {
            self.uuid = uuid.lowercased()
            self.bytes = bytes
        }

        public init(_ characteristic: HealthCharacteristic, _ bytes: [UInt8]) {
            self.init(characteristic.uuid, bytes)
        }
    }

    /// Answers a write of `bytes` (as `type`, while the characteristics `notifying` have notify sessions) with what the
    /// device then sends, or refuses it.
    public typealias WriteHandler = @Sendable (_ bytes: [UInt8], _ type: BluezClient.WriteType, _ notifying: Set<String>) throws(BluezError) -> [Notification]

    public var address: BluetoothAddress
    public var name: String?
    /// The service UUIDs it advertises (Device1 `UUIDs`).
    public var services: [String]
    public var characteristics: [Characteristic]
    public var pairing: Pairing
    /// bluetoothd holds a bond with it already: in the mirror from the start, paired and trusted.
    public var bonded: Bool
    /// It forgets its side of the bond when a link ends (cuff-sim's `forgetsBondAfterLink`, docs/cuff-sim.md): bluetoothd's
    /// kept key then fails, and only a fresh `Pair` after `RemoveDevice` links it again.
    public var forgetsBondAfterLink = false
    /// Whether `Connect` reaches it (it advertises); a connect to one that does not fails as a real controller's does.
    public var reachable = true
    /// Sent every time notifications on their characteristic are enabled (a cuff that re-sends its history).
    public var onSubscribe: [Notification] = []
    /// How writes to each characteristic are answered, by UUID; other writes just set the value.
    public var writeHandlers: [String: WriteHandler] = [:]
    /// A write of these bytes to the characteristic of that UUID makes the device end the link once it is answered
    /// (A&D's disconnect request, docs/reference/GATT-HEALTH.md §13.8).
    public var linkEndingWrites: [String: [UInt8]] = [:]
    /// An Omron cuff's memory and protocol (docs/omron.md), which answers the writes to its unlock characteristic and
    /// transmit channels.
    public var omron: EmbeddedOmronCuff?
    public var descriptors: [Descriptor] = []
    /// A recorded cuff's conversation (docs/cuff-sim.md, "Recorded cuffs"), which answers its reads and writes and
    /// says what it sends.
    public var recording: EmbeddedRecordedCuff?

    public init(
        _ address: BluetoothAddress, name: String?, services: [HealthService], characteristics: [Characteristic], pairing: Pairing = .justWorks,
        bonded: Bool = false
    ) {
        self.init(address, name: name, serviceUUIDs: services.map(\.uuid), characteristics: characteristics, pairing: pairing, bonded: bonded)
    }

    public init(
        _ address: BluetoothAddress, name: String?, serviceUUIDs: [String], characteristics: [Characteristic], pairing: Pairing = .justWorks,
        bonded: Bool = false
    ) {
        self.address = address
        self.name = name
        services = serviceUUIDs.map { $0.lowercased() }
        self.characteristics = characteristics
        self.pairing = pairing
        self.bonded = bonded
    }

    func characteristic(_ uuid: String) -> Characteristic? {
        characteristics.first { $0.uuid == uuid.lowercased() }
    }
}
