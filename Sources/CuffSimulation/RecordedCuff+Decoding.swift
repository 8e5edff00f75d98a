import CuffRecording
import GATTHealth

/// A `recorded` cuff read from a scenario file (docs/cuff-sim.md, "Recorded cuffs"), field by field as any other part
/// of a scenario: an unknown field, a UUID, flag or hex that is not one, is refused with its path.
extension RecordedCuff: Decodable {
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(Key.self)
        let container = try decoder.container(keyedBy: Key.self)
        let uuids = try container.decode([String].self, forKey: .uuids).map { try canonicalUUID($0, in: container, .uuids) }
        self.init(
            uuids: uuids, services: try container.decode([RecordedService].self, forKey: .services),
            links: try container.decode([RecordedLink].self, forKey: .links),
            notes: try container.decodeIfPresent([String].self, forKey: .notes) ?? [])
    }
}

extension RecordedService: Decodable {
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(Key.self)
        let container = try decoder.container(keyedBy: Key.self)
        self.init(
            uuid: try canonicalUUID(try container.decode(String.self, forKey: .uuid), in: container, .uuid),
            handle: try attributeHandle(container, .handle),
            characteristics: try container.decode([RecordedCharacteristic].self, forKey: .characteristics))
    }
}

extension RecordedCharacteristic: Decodable {
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(Key.self)
        let attribute = try RecordedDescriptor(attributeOf: decoder)
        self.init(
            uuid: attribute.uuid, handle: attribute.handle, flags: attribute.flags, value: attribute.value, readError: attribute.readError,
            descriptors: try decoder.container(keyedBy: Key.self).decodeIfPresent([RecordedDescriptor].self, forKey: .descriptors) ?? [])
    }
}

extension RecordedDescriptor: Decodable {
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(Key.self)
        try self.init(attributeOf: decoder)
    }

    /// What a characteristic and a descriptor both have, under the same names: UUID, handle, flags, the value a read
    /// returned, why reads failed.
    init(attributeOf decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        self.init(
            uuid: try canonicalUUID(try container.decode(String.self, forKey: .uuid), in: container, .uuid),
            handle: try attributeHandle(container, .handle), flags: try gattFlags(container, .flags),
            value: try container.decodeIfPresent(HexValue.self, forKey: .value)?.bytes,
            readError: try container.decodeIfPresent(String.self, forKey: .readError))
    }
}

extension RecordedLink: Decodable {
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(Key.self)
        let container = try decoder.container(keyedBy: Key.self)
        let after = try container.decodeIfPresent(Double.self, forKey: .after)
        if let after, !(after >= 0 && after.isFinite) {
            throw DecodingError.dataCorruptedError(forKey: .after, in: container, debugDescription: "must be a time ≥ 0 in seconds")
        }
        self.init(after: after, steps: try container.decode([RecordedStep].self, forKey: .steps))
    }
}

extension RecordedStep: Decodable {
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(Key.self)
        let container = try decoder.container(keyedBy: Key.self)
        let after = try container.decode(Double.self, forKey: .after)
        guard after >= 0, after.isFinite else {
            throw DecodingError.dataCorruptedError(forKey: .after, in: container, debugDescription: "must be a time ≥ 0 in seconds")
        }
        let actions = [Key.notify, .indicate, .read, .write, .subscribe, .disconnect].filter(container.contains)
        guard actions.count == 1 else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: container.codingPath, debugDescription: "a recorded step needs exactly one of notify, indicate, read, write, subscribe, disconnect"))
        }
        let action = actions[0]
        for key in [Key.type, .refused] where container.contains(key) && action != .write {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "only a write step has \(key.stringValue)")
        }
        if action == .disconnect {
            guard !container.contains(.hex) else {
                throw DecodingError.dataCorruptedError(forKey: .hex, in: container, debugDescription: "a disconnect step carries no value")
            }
            guard try container.decode(Bool.self, forKey: .disconnect) else {
                throw DecodingError.dataCorruptedError(forKey: .disconnect, in: container, debugDescription: "must be true")
            }
            self.init(after: after, .disconnect)
            return
        }
        let uuid = try canonicalUUID(try container.decode(String.self, forKey: action), in: container, action)
        if action == .subscribe {
            guard !container.contains(.hex) else {
                throw DecodingError.dataCorruptedError(forKey: .hex, in: container, debugDescription: "a subscribe step carries no value")
            }
            self.init(after: after, .subscribe(uuid: uuid))
            return
        }
        let bytes = try container.decode(HexValue.self, forKey: .hex).bytes
        switch action {
        case .notify, .indicate: self.init(after: after, .value(uuid: uuid, bytes: bytes, indication: action == .indicate))
        case .read: self.init(after: after, .read(uuid: uuid, bytes: bytes))
        default:
            let type = try container.decodeIfPresent(String.self, forKey: .type) ?? "request"
            guard type == "request" || type == "command" else {
                throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "\"\(type)\" is not request or command")
            }
            self.init(after: after, .write(uuid: uuid, bytes: bytes, command: type == "command", refusal: try container.decodeIfPresent(String.self, forKey: .refused)))
        }
    }
}

/// `text` as a 128-bit UUID, lower case, or the reason it is not one at `key`.
private func canonicalUUID<Key: CodingKey>(_ text: String, in container: KeyedDecodingContainer<Key>, _ key: Key) throws -> String {
    guard let uuid = BluetoothUUID.canonical(text) else {
        throw DecodingError.dataCorruptedError(
            forKey: key, in: container, debugDescription: "\"\(text)\" is not a UUID (2A35, or 128-bit like 0000fe4a-0000-1000-8000-00805f9b34fb)")
    }
    return uuid
}

/// An ATT handle, 1–65535, when present.
private func attributeHandle<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> UInt16? {
    guard let handle = try container.decodeInteger(UInt16.self, forKey: key) else { return nil }
    guard handle > 0 else { throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "an ATT handle is 1 to 65535") }
    return handle
}

/// `Flags` that bluetoothd exports (``RecordedCharacteristic/knownFlags``).
private func gattFlags<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> [String] {
    let flags = try container.decode([String].self, forKey: key)
    if let unknown = flags.first(where: { !RecordedCharacteristic.knownFlags.contains($0) }) {
        throw DecodingError.dataCorruptedError(
            forKey: key, in: container, debugDescription: "\"\(unknown)\" is not a flag of doc/gatt-api.txt (\(RecordedCharacteristic.knownFlags.joined(separator: ", ")))")
    }
    return flags
}
