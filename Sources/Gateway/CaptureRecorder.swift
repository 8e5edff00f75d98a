import BlueZ
import CuffRecording
import DBus

/// What a capture has seen of one device so far (docs/capture.md): the GATT database bluetoothd exported, each
/// value read from it, and each link's steps — values the device sent, reads, the host's writes — timed from the
/// link's start. A value; ``CuffCapture`` feeds it in the order things happened and turns it into a ``RecordedCuff``.
struct CaptureRecorder {
    /// A characteristic as the walk found it, with what reads returned.
    struct Characteristic {
        var characteristic: GattCharacteristic
        var value: [UInt8]?
        var readError: String?
        /// The first value bluetoothd's `Value` showed for it: on one that notifies, cuffd's own read is announced as
        /// a notification would be (docs/reference/BLUEZ-DBUS.md §7), so this is what cuffd read, when it read it first.
        var shown: [UInt8]?

        /// What the recording says a read returns: the walk's read, else — when the walk never got to read it (the
        /// link went first) — the first value bluetoothd showed, so that a replay's host reads what cuffd read.
        var recordedValue: [UInt8]? {
            value ?? (readError == nil && characteristic.isReadable ? shown : nil)
        }
    }

    /// A descriptor as the walk found it.
    struct Descriptor {
        var descriptor: GattDescriptor
        var value: [UInt8]?
        var readError: String?
    }

    /// The characteristics and descriptors exported so far, by object path (paths sort by ATT handle).
    private(set) var characteristics: [DBusObjectPath: Characteristic] = [:]
    private(set) var descriptors: [DBusObjectPath: Descriptor] = [:]
    /// Device1 `UUIDs`, as last seen.
    var uuids: [String] = []
    private var links: [RecordedLink] = []
    /// When the link under way came up; nil between links.
    private(set) var linkStart: ContinuousClock.Instant?
    private var lastLinkEnd: ContinuousClock.Instant?
    /// The capture's own reads under way, by UUID, and the values they returned whose `Value` change has not come
    /// yet: bluetoothd announces a read as a change of `Value` (docs/reference/BLUEZ-DBUS.md §7), which must not
    /// be taken for a notification.
    private var readsUnderWay: [String: Int] = [:]
    private var echoesDue: [(uuid: String, bytes: [UInt8])] = []
    private var echoesSeen: [String: Int] = [:]

    var hasLink: Bool { linkStart != nil }
    var linkCount: Int { links.count }

    // MARK: - The database

    /// Adds what bluetoothd exports now; what was seen before stays (a bonded device's objects come and go with links).
    mutating func exported(_ exported: [GattCharacteristic], _ exportedDescriptors: [GattDescriptor]) {
        for characteristic in exported where characteristics[characteristic.path] == nil {
            characteristics[characteristic.path] = Characteristic(characteristic: characteristic)
        }
        for descriptor in exportedDescriptors where descriptors[descriptor.path] == nil {
            descriptors[descriptor.path] = Descriptor(descriptor: descriptor)
        }
    }

    /// Readable characteristics no read of which has succeeded or been refused yet, by UUID (bluetoothd's clients
    /// name a characteristic by UUID: the first of several with one is read).
    var unreadCharacteristics: [String] {
        var seen: Set<String> = []
        return characteristics.keys.sorted().compactMap { path in
            let entry = characteristics[path]!
            guard entry.characteristic.isReadable, entry.value == nil, entry.readError == nil,
                  seen.insert(entry.characteristic.uuid).inserted else { return nil }
            return entry.characteristic.uuid
        }
    }

    /// Readable descriptors not read yet; never the Client Characteristic Configuration, which bluetoothd keeps.
    var unreadDescriptors: [GattDescriptor] {
        descriptors.keys.sorted().compactMap { path in
            let entry = descriptors[path]!
            guard !entry.descriptor.isClientConfiguration, entry.descriptor.flags.contains("read") || entry.descriptor.flags.contains("encrypt-read"),
                  entry.value == nil, entry.readError == nil else { return nil }
            return entry.descriptor
        }
    }

    /// The characteristics that notify or indicate, by UUID.
    var notifyingUUIDs: Set<String> {
        Set(characteristics.values.filter(\.characteristic.canNotify).map(\.characteristic.uuid))
    }

    /// The capture starts a read of `uuid`.
    mutating func reading(_ uuid: String) {
        readsUnderWay[uuid, default: 0] += 1
    }

    /// The capture's read of `uuid` ended: its value, or the refusal (`error`).
    mutating func read(_ uuid: String, _ result: Result<[UInt8], BluezError>) {
        readsUnderWay[uuid, default: 1] -= 1
        for path in characteristics.keys where characteristics[path]!.characteristic.uuid == uuid && characteristics[path]!.value == nil {
            switch result {
            case .success(let bytes):
                characteristics[path]!.value = bytes
                characteristics[path]!.readError = nil
            case .failure(let error):
                characteristics[path]!.readError = error.description
            }
        }
        guard case .success(let bytes) = result, characteristic(uuid)?.canNotify == true else { return }
        if echoesSeen[uuid, default: 0] > 0 { echoesSeen[uuid]! -= 1 } else { echoesDue.append((uuid, bytes)) }
    }

    /// The capture's read of `descriptor` ended.
    mutating func read(_ descriptor: GattDescriptor, _ result: Result<[UInt8], BluezError>) {
        switch result {
        case .success(let bytes): descriptors[descriptor.path]?.value = bytes
        case .failure(let error): descriptors[descriptor.path]?.readError = error.description
        }
    }

    private func characteristic(_ uuid: String) -> GattCharacteristic? {
        characteristics.keys.sorted().lazy.map { characteristics[$0]!.characteristic }.first { $0.uuid == uuid }
    }

    // MARK: - Links

    mutating func linkUp(at moment: ContinuousClock.Instant) {
        guard linkStart == nil else { return }
        linkStart = moment
        links.append(RecordedLink(after: lastLinkEnd.map { Self.seconds(moment - $0) }, steps: []))
    }

    mutating func linkDown(at moment: ContinuousClock.Instant) {
        guard linkStart != nil else { return }
        record(.disconnect, at: moment)
        linkStart = nil
        lastLinkEnd = moment
        readsUnderWay = [:]
        echoesDue = []
        echoesSeen = [:]
    }

    /// bluetoothd announced a `Value`: a notification or indication, or what a read returned — a read for certain
    /// on a characteristic that can do neither, and where it answers a read of the capture's own.
    mutating func value(_ uuid: String, _ bytes: [UInt8], at moment: ContinuousClock.Instant) {
        guard let characteristic = characteristic(uuid) else { return }
        for path in characteristics.keys where characteristics[path]!.characteristic.uuid == uuid && characteristics[path]!.shown == nil {
            characteristics[path]!.shown = bytes
        }
        if !characteristic.canNotify || isEcho(uuid, bytes) {
            for path in characteristics.keys where characteristics[path]!.characteristic.uuid == uuid && characteristics[path]!.value == nil {
                characteristics[path]!.value = bytes
            }
            record(.read(uuid: uuid, bytes: bytes), at: moment)
        } else {
            let indicates = characteristic.flags.contains("indicate") && !characteristic.flags.contains("notify")
            record(.value(uuid: uuid, bytes: bytes, indication: indicates), at: moment)
        }
    }

    /// The host's notify session on `uuid` started: a replay holds what follows until its host starts one too.
    mutating func subscribed(_ uuid: String, at moment: ContinuousClock.Instant) {
        guard characteristic(uuid)?.canNotify == true else { return }
        record(.subscribe(uuid: uuid), at: moment)
    }

    private mutating func isEcho(_ uuid: String, _ bytes: [UInt8]) -> Bool {
        if let due = echoesDue.firstIndex(where: { $0.uuid == uuid && $0.bytes == bytes }) {
            echoesDue.remove(at: due)
            return true
        }
        guard readsUnderWay[uuid, default: 0] > 0 else { return false }
        echoesSeen[uuid, default: 0] += 1
        return true
    }

    /// A write made through the central: as it goes out, or its refusal, which is added to the step of that write.
    mutating func write(_ write: GattWrite, at moment: ContinuousClock.Instant) {
        guard let refusal = write.refusal else {
            record(.write(uuid: write.uuid, bytes: write.bytes, command: write.type == .command, refusal: nil), at: moment)
            return
        }
        guard var link = links.last else { return }
        if let index = link.steps.lastIndex(where: { $0.action == .write(uuid: write.uuid, bytes: write.bytes, command: write.type == .command, refusal: nil) }) {
            link.steps[index].action = .write(uuid: write.uuid, bytes: write.bytes, command: write.type == .command, refusal: refusal)
            links[links.count - 1] = link
        }
    }

    private mutating func record(_ action: RecordedStep.Action, at moment: ContinuousClock.Instant) {
        guard let linkStart else { return }
        links[links.count - 1].steps.append(RecordedStep(after: Self.seconds(moment - linkStart), action))
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    // MARK: - The recording

    /// The cuff as recorded: services in handle order, each characteristic with its first value read (or why reads
    /// failed) and its descriptors; the links; `notes`.
    func recorded(notes: [String]) -> RecordedCuff {
        var services: [RecordedService] = []
        var serviceKeys: [String] = []
        for path in characteristics.keys.sorted() {
            let entry = characteristics[path]!
            let key = (path.parent?.text ?? "") + " " + entry.characteristic.serviceUUID
            let descriptors = self.descriptors.keys.sorted().compactMap { self.descriptors[$0] }.filter { $0.descriptor.characteristic == path }
            let recorded = RecordedCharacteristic(
                uuid: entry.characteristic.uuid, handle: Self.handle(path, "char"), flags: RecordedCharacteristic.ordered(entry.characteristic.flags),
                value: entry.recordedValue, readError: entry.recordedValue == nil ? entry.readError : nil,
                descriptors: descriptors.map {
                    RecordedDescriptor(
                        uuid: $0.descriptor.uuid, handle: Self.handle($0.descriptor.path, "desc"), flags: RecordedCharacteristic.ordered($0.descriptor.flags),
                        value: $0.value, readError: $0.value == nil ? $0.readError : nil)
                })
            if let index = serviceKeys.firstIndex(of: key) {
                services[index].characteristics.append(recorded)
            } else {
                serviceKeys.append(key)
                services.append(RecordedService(
                    uuid: entry.characteristic.serviceUUID, handle: path.parent.flatMap { Self.handle($0, "service") }, characteristics: [recorded]))
            }
        }
        return RecordedCuff(uuids: uuids, services: services, links: links, notes: notes)
    }

    /// The ATT handle in an object path's last element, as bluetoothd names them (`char000b`, docs/reference/BLUEZ-DBUS.md
    /// §1); nil for a path named otherwise.
    static func handle(_ path: DBusObjectPath, _ prefix: String) -> UInt16? {
        guard let element = path.text.split(separator: "/").last, element.hasPrefix(prefix) else { return nil }
        let digits = element.dropFirst(prefix.count)
        guard digits.count == 4 else { return nil }
        return UInt16(digits, radix: 16)
    }
}
