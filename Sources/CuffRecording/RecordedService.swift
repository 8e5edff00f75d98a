/// A primary service of a recorded cuff: its `UUID`, its ATT handle when bluetoothd's object path told it
/// (`serviceNNNN`, docs/reference/BLUEZ-DBUS.md §1), and its characteristics.
public struct RecordedService: Sendable, Equatable {
    /// Lower-case 128-bit.
    public var uuid: String
    public var handle: UInt16?
    public var characteristics: [RecordedCharacteristic]

    public init(uuid: String, handle: UInt16? = nil, characteristics: [RecordedCharacteristic]) {
        self.uuid = uuid
        self.handle = handle
        self.characteristics = characteristics
    }

    public enum Key: String, CodingKey, CaseIterable { case uuid, handle, characteristics }
}

/// A characteristic of a recorded cuff: `UUID`, handle, `Flags` (`doc/gatt-api.txt`), what a read returned first (or
/// why the read failed), and its descriptors.
public struct RecordedCharacteristic: Sendable, Equatable {
    /// Lower-case 128-bit.
    public var uuid: String
    public var handle: UInt16?
    public var flags: [String]
    /// The first value a read returned; nil when it was never read.
    public var value: [UInt8]?
    /// Why every read failed (bluetoothd's error name and text), when none succeeded.
    public var readError: String?
    public var descriptors: [RecordedDescriptor]

    public init(
        uuid: String, handle: UInt16? = nil, flags: [String], value: [UInt8]? = nil, readError: String? = nil,
        descriptors: [RecordedDescriptor] = []
    ) {
        self.uuid = uuid
        self.handle = handle
        self.flags = flags
        self.value = value
        self.readError = readError
        self.descriptors = descriptors
    }

    public enum Key: String, CodingKey, CaseIterable { case uuid, handle, flags, value = "hex", readError, descriptors }

    /// The `Flags` bluetoothd 5.66 exports (`doc/gatt-api.txt`), in the order it lists them.
    public static let knownFlags = [
        "broadcast", "read", "write-without-response", "write", "notify", "indicate", "authenticated-signed-writes",
        "extended-properties", "reliable-write", "writable-auxiliaries", "encrypt-read", "encrypt-write", "encrypt-notify",
        "encrypt-indicate", "encrypt-authenticated-read", "encrypt-authenticated-write", "encrypt-authenticated-notify",
        "encrypt-authenticated-indicate", "secure-read", "secure-write", "secure-notify", "secure-indicate", "authorize",
    ]

    /// `flags` in the order of ``knownFlags`` (any other last, by name), so a capture reads the same each time.
    public static func ordered(_ flags: some Sequence<String>) -> [String] {
        flags.sorted { (knownFlags.firstIndex(of: $0) ?? knownFlags.count, $0) < (knownFlags.firstIndex(of: $1) ?? knownFlags.count, $1) }
    }

    /// Whether a notify session applies (`notify` or `indicate`, docs/reference/BLUEZ-DBUS.md §7).
    public var canNotify: Bool { flags.contains("notify") || flags.contains("indicate") }
    /// How a value it sends is written in a step: `indicate` for a characteristic that only indicates, else `notify`.
    public var indicates: Bool { flags.contains("indicate") && !flags.contains("notify") }
}

/// A descriptor of a recorded characteristic: `UUID`, handle, `Flags`, what a read returned (the Client Characteristic
/// Configuration 0x2902 is never read: bluetoothd writes it for StartNotify).
public struct RecordedDescriptor: Sendable, Equatable {
    /// Lower-case 128-bit.
    public var uuid: String
    public var handle: UInt16?
    public var flags: [String]
    public var value: [UInt8]?
    public var readError: String?

    public init(uuid: String, handle: UInt16? = nil, flags: [String], value: [UInt8]? = nil, readError: String? = nil) {
        self.uuid = uuid
        self.handle = handle
        self.flags = flags
        self.value = value
        self.readError = readError
    }

    public enum Key: String, CodingKey, CaseIterable { case uuid, handle, flags, value = "hex", readError }
}
