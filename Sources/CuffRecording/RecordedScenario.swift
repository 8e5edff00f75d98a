import GATTHealth
import JSONEscaping

/// What `cuffctl capture` writes (docs/capture.md): a whole cuff-sim scenario (docs/cuff-sim.md) with one cuff of the
/// `recorded` kind, played with `cuff-sim --scenario FILE` as any other.
public struct RecordedScenario: Sendable, Equatable {
    /// The adapter's address, `AA:BB:…`.
    public var adapter: String
    /// The cuff's address.
    public var address: String
    /// Device1 `Name`; empty when bluetoothd knew none.
    public var name: String
    /// Whether bluetoothd held a bond with the cuff when the capture ended: the replayed cuff then pairs Just Works
    /// (a passkey is never seen on the bus), else it pairs with nothing asked.
    public var paired: Bool
    public var cuff: RecordedCuff

    public init(adapter: String, address: String, name: String, paired: Bool, cuff: RecordedCuff) {
        self.adapter = adapter
        self.address = address
        self.name = name
        self.paired = paired
        self.cuff = cuff
    }

    /// The scenario as JSON, laid out as the shipped ones are: a characteristic, a step, a line each.
    public var json: String {
        var lines = ["{", "  \"adapter\": {\"address\": \(JSONString.quoted(adapter))},", "  \"cuffs\": [{"]
        lines.append("    \"address\": \(JSONString.quoted(address)),")
        lines.append("    \"name\": \(JSONString.quoted(name)),")
        lines.append("    \"pairing\": \(JSONString.quoted(paired ? "justWorks" : "none")),")
        lines.append("    \"recorded\": {")
        var recorded = ["      \(key(RecordedCuff.Key.uuids)): \(list(cuff.uuids.map(BluetoothUUID.compact)))"]
        recorded.append("      \(key(RecordedCuff.Key.services)): [" + block(cuff.services.map(Self.service), indent: "        ") + "]")
        recorded.append("      \(key(RecordedCuff.Key.links)): [" + block(cuff.links.map(Self.link), indent: "        ") + "]")
        recorded.append("      \(key(RecordedCuff.Key.notes)): \(list(cuff.notes))")
        lines.append(recorded.joined(separator: ",\n"))
        lines += ["    }", "  }]", "}", ""]
        return lines.joined(separator: "\n")
    }

    private static func service(_ service: RecordedService) -> String {
        var fields = [(RecordedService.Key.uuid.rawValue, JSONString.quoted(BluetoothUUID.compact(service.uuid)))]
        if let handle = service.handle { fields.append((RecordedService.Key.handle.rawValue, "\(handle)")) }
        let characteristics = block(service.characteristics.map(Self.characteristic), indent: "          ")
        fields.append((RecordedService.Key.characteristics.rawValue, "[" + characteristics + "]"))
        return object(fields)
    }

    private static func characteristic(_ characteristic: RecordedCharacteristic) -> String {
        var fields = attribute(
            RecordedDescriptor(
                uuid: characteristic.uuid, handle: characteristic.handle, flags: characteristic.flags, value: characteristic.value,
                readError: characteristic.readError))
        if !characteristic.descriptors.isEmpty {
            fields.append((RecordedCharacteristic.Key.descriptors.rawValue, "[" + characteristic.descriptors.map { object(attribute($0)) }.joined(separator: ", ") + "]"))
        }
        return object(fields)
    }

    /// What a characteristic and a descriptor both have, under the same names: UUID, handle, flags, value, read error.
    private static func attribute(_ attribute: RecordedDescriptor) -> [(String, String)] {
        typealias Key = RecordedDescriptor.Key
        var fields = [(Key.uuid.rawValue, JSONString.quoted(BluetoothUUID.compact(attribute.uuid)))]
        if let handle = attribute.handle { fields.append((Key.handle.rawValue, "\(handle)")) }
        fields.append((Key.flags.rawValue, list(attribute.flags)))
        if let value = attribute.value { fields.append((Key.value.rawValue, JSONString.quoted(Hex.bytes(value)))) }
        if let error = attribute.readError { fields.append((Key.readError.rawValue, JSONString.quoted(error))) }
        return fields
    }

    private static func link(_ link: RecordedLink) -> String {
        let steps = "[" + block(link.steps.map(Self.step), indent: "          ") + "]"
        let after = link.after.map { "\(key(RecordedLink.Key.after)): \(seconds($0)), " } ?? ""
        return "{" + after + "\(key(RecordedLink.Key.steps)): " + steps + "}"
    }

    private static func step(_ step: RecordedStep) -> String {
        typealias Key = RecordedStep.Key
        var fields = [(Key.after.rawValue, seconds(step.after))]
        switch step.action {
        case let .value(uuid, bytes, indication):
            fields.append(((indication ? Key.indicate : Key.notify).rawValue, JSONString.quoted(BluetoothUUID.compact(uuid))))
            fields.append((Key.hex.rawValue, JSONString.quoted(Hex.bytes(bytes))))
        case let .read(uuid, bytes):
            fields.append((Key.read.rawValue, JSONString.quoted(BluetoothUUID.compact(uuid))))
            fields.append((Key.hex.rawValue, JSONString.quoted(Hex.bytes(bytes))))
        case let .write(uuid, bytes, command, refusal):
            fields.append((Key.write.rawValue, JSONString.quoted(BluetoothUUID.compact(uuid))))
            fields.append((Key.hex.rawValue, JSONString.quoted(Hex.bytes(bytes))))
            if command { fields.append((Key.type.rawValue, JSONString.quoted("command"))) }
            if let refusal { fields.append((Key.refused.rawValue, JSONString.quoted(refusal))) }
        case let .subscribe(uuid):
            fields.append((Key.subscribe.rawValue, JSONString.quoted(BluetoothUUID.compact(uuid))))
        case .disconnect:
            fields.append((Key.disconnect.rawValue, "true"))
        }
        return object(fields)
    }

    /// Seconds to the millisecond, as few digits as that takes: `0.5`, `6.012`, `3`.
    static func seconds(_ value: Double) -> String {
        let milliseconds = Int((value * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        let digits = (String(repeating: "0", count: 3 - fraction.count) + fraction).reversed().drop { $0 == "0" }.reversed()
        return "\(milliseconds / 1000)" + (digits.isEmpty ? "" : "." + String(digits))
    }
}

/// `"key"` of a JSON object.
private func key(_ key: some CodingKey) -> String { JSONString.quoted(key.stringValue) }

/// A one-line JSON array of strings.
private func list(_ strings: [String]) -> String { "[" + strings.map(JSONString.quoted).joined(separator: ", ") + "]" }

/// A one-line JSON object of already rendered values, in the order given.
private func object(_ fields: [(String, String)]) -> String {
    "{" + fields.map { "\(JSONString.quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
}

/// Elements a line each, at `indent`, for the inside of `[` … `]`; nothing for none.
private func block(_ elements: [String], indent: String) -> String {
    elements.isEmpty ? "" : "\n" + elements.map { indent + $0 }.joined(separator: ",\n") + "\n" + indent.dropLast(2)
}
