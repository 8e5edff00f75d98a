import BlueZ
import CuffRecording
import GATTHealth

/// What a capture replaces so that the file identifies neither the cuff nor its owner (docs/capture.md, "What is
/// replaced"), each original by the same stand-in wherever it appears: the cuff's and the adapter's addresses (as
/// bytes either way round and as text, in values and in the name), the Serial Number String 0x2A25 and the System
/// ID 0x2A23 (whole values, and their bytes wherever else they appear), the personal strings and date of birth of
/// the User Data Service, and an Omron cuff's pairing key (docs/omron.md §2). Readings keep their values and times:
/// they are the point of a capture.
struct CaptureRedaction {
    /// Byte sequences and their stand-ins, longest first, replaced inside every value.
    private var patterns: [(original: [UInt8], replacement: [UInt8])] = []
    /// Whole values of characteristics that identify someone, and their stand-ins.
    private var wholeValues: [String: [[UInt8]: [UInt8]]] = [:]
    /// The cuff's and the adapter's stand-in addresses.
    let replacedAddress: BluetoothAddress
    let replacedAdapter: BluetoothAddress

    /// Serial numbers shorter than this are replaced only where they are a whole value (or in the name): a few digits
    /// may as well be part of a reading.
    static let shortestSerialPattern = 6

    /// Characteristics whose whole values are replaced: serial, System ID, and the User Data Service's First Name
    /// 0x2A8A, Last Name 0x2A90, Email Address 0x2A87 and Date of Birth 0x2A85.
    static let identifying: [UInt16] = [0x2A25, 0x2A23, 0x2A8A, 0x2A90, 0x2A87, 0x2A85]

    /// The stand-ins for what `scenario` holds, drawn from `generator`.
    init(_ scenario: RecordedScenario, using generator: inout some RandomNumberGenerator) {
        replacedAddress = Self.randomAddress(&generator)
        replacedAdapter = Self.randomAddress(&generator)
        for (text, replacement) in [(scenario.address, replacedAddress), (scenario.adapter, replacedAdapter)] {
            guard let original = BluetoothAddress(text) else { continue }
            add(original.bytes, replacement.bytes)
            add(original.bytes.reversed(), replacement.bytes.reversed())
            for (form, stand) in zip(Self.texts(original), Self.texts(replacement)) { add(Array(form.utf8), Array(stand.utf8)) }
        }
        for (uuid, values) in Self.values(in: scenario.cuff) {
            let number = BluetoothUUID.shortNumber(uuid)
            for value in values where wholeValues[uuid]?[value] == nil {
                let replacement = Self.stand(for: value, number, &generator)
                wholeValues[uuid, default: [:]][value] = replacement
                if number == 0x2A23 {
                    add(value, replacement)
                    add(Array(Hex.bytes(value.reversed(), separator: "").utf8), Array(Hex.bytes(replacement.reversed(), separator: "").utf8))
                } else if number == 0x2A25 {
                    let serial = Array(value.prefix { $0 != 0 })
                    if serial.count >= Self.shortestSerialPattern { add(serial, Array(replacement.prefix(serial.count))) }
                }
            }
        }
        for key in Self.omronKeys(in: scenario.cuff) { add(key, key.map { _ in UInt8.random(in: 0 ... 255, using: &generator) }) }
        patterns.sort { $0.original.count > $1.original.count }
    }

    /// `scenario` with every identifying part replaced.
    func apply(_ scenario: RecordedScenario) -> RecordedScenario {
        var redacted = scenario
        redacted.address = replacedAddress.description
        redacted.adapter = replacedAdapter.description
        redacted.name = String(decoding: replaced(Array(scenario.name.utf8), serialsToo: true), as: UTF8.self)
        for service in redacted.cuff.services.indices {
            for index in redacted.cuff.services[service].characteristics.indices {
                var characteristic = redacted.cuff.services[service].characteristics[index]
                characteristic.value = characteristic.value.map { value(of: characteristic.uuid, $0) }
                for descriptor in characteristic.descriptors.indices {
                    characteristic.descriptors[descriptor].value = characteristic.descriptors[descriptor].value.map { replaced($0) }
                }
                redacted.cuff.services[service].characteristics[index] = characteristic
            }
        }
        for link in redacted.cuff.links.indices {
            for step in redacted.cuff.links[link].steps.indices {
                switch redacted.cuff.links[link].steps[step].action {
                case let .value(uuid, bytes, indication):
                    redacted.cuff.links[link].steps[step].action = .value(uuid: uuid, bytes: value(of: uuid, bytes), indication: indication)
                case let .read(uuid, bytes):
                    redacted.cuff.links[link].steps[step].action = .read(uuid: uuid, bytes: value(of: uuid, bytes))
                case let .write(uuid, bytes, command, refusal):
                    redacted.cuff.links[link].steps[step].action = .write(uuid: uuid, bytes: value(of: uuid, bytes), command: command, refusal: refusal)
                case .subscribe, .disconnect:
                    break
                }
            }
        }
        return redacted
    }

    /// A value of characteristic `uuid` with what identifies replaced: the whole value's stand-in for an identifying
    /// characteristic, else every known sequence inside it.
    private func value(of uuid: String, _ bytes: [UInt8]) -> [UInt8] {
        wholeValues[uuid]?[bytes] ?? replaced(bytes)
    }

    /// `bytes` with every pattern replaced; with `serialsToo`, also serial numbers too short to be patterns (a name).
    private func replaced(_ bytes: [UInt8], serialsToo: Bool = false) -> [UInt8] {
        var shortSerials: [(original: [UInt8], replacement: [UInt8])] = []
        if serialsToo, let serials = wholeValues[HealthCharacteristic.serialNumberString.uuid] {
            shortSerials = serials.map { (Array($0.key.prefix { $0 != 0 }), Array($0.value.prefix { $0 != 0 })) }.filter { $0.original.count >= 3 }
        }
        var result = bytes
        for pattern in patterns + shortSerials {
            var index = 0
            while index + pattern.original.count <= result.count {
                if result[index ..< index + pattern.original.count].elementsEqual(pattern.original) {
                    result.replaceSubrange(index ..< index + pattern.original.count, with: pattern.replacement)
                    index += pattern.original.count
                } else {
                    index += 1
                }
            }
        }
        return result
    }

    private mutating func add(_ original: [UInt8], _ replacement: [UInt8]) {
        guard !original.isEmpty, !patterns.contains(where: { $0.original == original }) else { return }
        patterns.append((original, replacement))
    }

    /// A stand-in of the same length: a date of birth becomes 2000-01-01 (0x2A85, reference/GATT-HEALTH.md); a System
    /// ID random bytes; text keeps its shape (a digit for a digit, a letter for a letter).
    private static func stand(for value: [UInt8], _ number: UInt16?, _ generator: inout some RandomNumberGenerator) -> [UInt8] {
        if number == 0x2A85, value.count == 4 { return [0xD0, 0x07, 0x01, 0x01] }
        if number == 0x2A23 { return value.map { _ in UInt8.random(in: 0 ... 255, using: &generator) } }
        return value.map { byte in
            switch byte {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): UInt8.random(in: UInt8(ascii: "0") ... UInt8(ascii: "9"), using: &generator)
            case UInt8(ascii: "A") ... UInt8(ascii: "Z"): UInt8.random(in: UInt8(ascii: "A") ... UInt8(ascii: "Z"), using: &generator)
            case UInt8(ascii: "a") ... UInt8(ascii: "z"): UInt8.random(in: UInt8(ascii: "a") ... UInt8(ascii: "z"), using: &generator)
            default: byte
            }
        }
    }

    /// A static random address (Core Specification Vol 6, Part B, §1.3.2.1: the two top bits set).
    private static func randomAddress(_ generator: inout some RandomNumberGenerator) -> BluetoothAddress {
        var bytes = (0 ..< 6).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        bytes[0] |= 0xC0
        return BluetoothAddress(Hex.bytes(bytes, separator: ":"))!
    }

    /// An address as text: `C4:F3:12:53:F2:C9`, `C4-F3-…`, `C4F31253F2C9`, each also in lower case.
    private static func texts(_ address: BluetoothAddress) -> [String] {
        let forms = [":", "-", ""].map { Hex.bytes(address.bytes, separator: $0) }
        return forms + forms.map { $0.lowercased() }
    }

    /// Every value of an identifying characteristic the recording holds: read, notified or written.
    private static func values(in cuff: RecordedCuff) -> [(String, [[UInt8]])] {
        identifying.map(BluetoothUUID.expand).map { uuid in
            let read = cuff.characteristics.filter { $0.uuid == uuid }.compactMap(\.value)
            let sent = cuff.links.flatMap(\.steps).compactMap { step -> [UInt8]? in
                switch step.action {
                case let .value(stepUUID, bytes, _), let .read(stepUUID, bytes), let .write(stepUUID, bytes, _, _): stepUUID == uuid ? bytes : nil
                case .subscribe, .disconnect: nil
                }
            }
            return (uuid, read + sent)
        }
    }

    /// The pairing keys written to Omron's unlock characteristic: `00` or `01` and 16 bytes (docs/omron.md §2).
    private static func omronKeys(in cuff: RecordedCuff) -> [[UInt8]] {
        cuff.links.flatMap(\.steps).compactMap { step in
            guard case let .write(uuid, bytes, _, _) = step.action, uuid == OmronService.unlock, bytes.count == 1 + OmronUnlock.keyLength,
                  bytes[0] == 0x00 || bytes[0] == 0x01 else { return nil }
            return Array(bytes.dropFirst())
        }
    }
}
