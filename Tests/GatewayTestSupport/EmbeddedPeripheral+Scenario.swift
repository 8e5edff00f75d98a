import BlueZ
import CuffSimulation
import Foundation
import GATTHealth
import Synchronization

extension EmbeddedPeripheral {
    /// The cuff a scenario file describes (scenarios/README.md), as cuff-sim lays out its GATT database: its name,
    /// services, pairing, bond, characteristics and their values, and the records it indicates whenever
    /// indications on 0x2A35 are enabled. Its timeline is the test's to play, step by step (``EmbeddedCentral/perform(_:on:)``).
    /// A recorded cuff answers from its recording (``EmbeddedRecordedCuff``), and the test plays what it does by itself
    /// (``EmbeddedCentral/stepRecording(_:)``).
    public init(_ cuff: CuffSpec) {
        let pairing: Pairing = switch cuff.pairing {
        case .none: .none
        case .justWorks: .justWorks
        case .passkey(let key): .passkey(key)
        }
        self.init(
            cuff.address, name: cuff.name, serviceUUIDs: cuff.advertisedUUIDs,
            characteristics: cuff.characteristics.map { Characteristic($0.uuid, service: $0.serviceUUID, Set($0.flags), value: $0.value) },
            pairing: pairing, bonded: cuff.bonded)
        forgetsBondAfterLink = cuff.forgetsBondAfterLink
        if let recorded = cuff.recorded {
            recording = EmbeddedRecordedCuff(recorded)
            writeHandlers = recording!.writeHandlers
            descriptors = recorded.characteristics.flatMap { characteristic in
                characteristic.descriptors.filter { $0.uuid != BluetoothUUID.expand(0x2902) }.map {
                    Descriptor($0.uuid, of: characteristic.uuid, Set($0.flags), value: $0.value ?? [], readError: $0.readError)
                }
            }
            return
        }
        onSubscribe = cuff.storedRecords.map { Notification(.bloodPressureMeasurement, $0.bytes) }
        if cuff.vendor == .qardioArm { writeHandlers[QardioArmControlPoint.uuid] = Self.qardioArm(measuring: cuff.onStart) }
        omron = cuff.omron.map(EmbeddedOmronCuff.init)
        if let omron { writeHandlers.merge(omron.writeHandlers) { $1 } }
        if cuff.records != nil { writeHandlers[HealthCharacteristic.recordAccessControlPoint.uuid] = Self.recordAccess(RecordMemory(cuff)) }
        if cuff.vendor == .aAndD { linkEndingWrites[AAndDService.command] = AAndDService.disconnectRequest }
        if let microlife = cuff.microlife {
            writeHandlers[MicrolifeService.command] = Self.microlife(MicrolifeCuff(microlife))
            linkEndingWrites[MicrolifeService.command] = MicrolifeCommand.disconnect.encoded()
        }
    }

    /// QardioArm's control point as cuff-sim answers it (docs/reference/GATT-HEALTH.md §12): `F1 01` inflates, sends what
    /// `onStart` sends and completes, all at once; `F1 02` aborts.
    static func qardioArm(measuring steps: [TimelineStep]) -> WriteHandler {
        { bytes, _, _ throws(BluezError) in
            let phase = { (phase: QardioArmControlPoint.Phase) in Notification(QardioArmControlPoint.uuid, phase.encoded()) }
            switch try? QardioArmControlPoint.Command(decoding: bytes) {
            case .start?:
                let sent = steps.compactMap { step -> Notification? in
                    switch step.action {
                    case let .notify(characteristic, value), let .indicate(characteristic, value): Notification(characteristic, value.bytes)
                    default: nil
                    }
                }
                return [phase(.inflating)] + sent + [phase(.completed)]
            case .cancel?: return [phase(.aborted)]
            case nil: throw EmbeddedCentral.attError(0x13, "Value not allowed")
            }
        }
    }

    /// A Microlife cuff's 0xFFF2 as cuff-sim answers it (``MicrolifeCuff``, docs/reference/GATT-HEALTH.md §13.12): each
    /// whole command's answer notified on 0xFFF1 in its pieces, at once.
    static func microlife(_ cuff: MicrolifeCuff) -> WriteHandler {
        let cuff = Mutex(cuff)
        return { bytes, _, _ throws(BluezError) in
            cuff.withLock { $0.write(bytes) }.notifications.map { Notification(MicrolifeService.notify, $0) }
        }
    }

    /// A BPS 1.1 cuff's Record Access Control Point as cuff-sim answers it (``RecordMemory``), each procedure carried
    /// out at once: the selected records' 0x2B36 segments, then the response on 0x2A52.
    static func recordAccess(_ memory: RecordMemory) -> WriteHandler {
        let memory = Mutex(memory)
        return { bytes, _, notifying throws(BluezError) in
            do throws(ATTError) {
                let (segments, response) = try memory.withLock { memory throws(ATTError) in
                    try memory.indications(
                        for: bytes, controlPointIndicating: notifying.contains(HealthCharacteristic.recordAccessControlPoint.uuid),
                        recordsIndicating: notifying.contains(HealthCharacteristic.bloodPressureRecord.uuid))
                }
                return segments.map { Notification(.bloodPressureRecord, $0) } + [Notification(.recordAccessControlPoint, response)]
            } catch {
                // Refused as bluetoothd passes an ATT error on.
                throw BluezError(error.dbusError)
            }
        }
    }

    /// The scenarios shipped in `scenarios/`.
    public static let scenarioFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scenarios")

    /// The cuffs of the shipped scenario `name`, with `edits` (text → replacement, each applied where present) made
    /// to its file first.
    public static func scenario(_ name: String, _ edits: [String: String] = [:]) throws -> Scenario {
        var json = try String(contentsOf: scenarioFolder.appendingPathComponent(name), encoding: .utf8)
        for (text, replacement) in edits { json = json.replacingOccurrences(of: text, with: replacement) }
        return try Scenario.parse(Data(json.utf8))
    }
}

extension EmbeddedCentral {
    /// Does what one step of a scenario's timeline does (scenarios/README.md) to the cuff at `address`: a value sent,
    /// the link dropped, the cuff advertising (and so connected, when paired and trusted: GattProfile1,
    /// docs/reference/BLUEZ-DBUS.md §4), bluetoothd restarting. Returns whether a value sent was delivered.
    @discardableResult
    public func perform(_ action: TimelineStep.Action, on address: BluetoothAddress) async -> Bool {
        switch action {
        case let .notify(characteristic, value), let .indicate(characteristic, value):
            return send(EmbeddedPeripheral.Notification(characteristic, value.bytes), from: address)
        case .disconnect:
            linkDown(address)
        case .advertise:
            advertise(address)
        case .restartBluez:
            // The cuffs connected then advertise again, and are auto-connected once the client registered again (§10).
            let linked = nodes.keys.filter { nodes[$0]!.connected }.sorted()
            bluetoothdStopped()
            // Gone long enough for the Gateway to see it gone.
            await settled()
            bluetoothdStarted()
            for address in linked { linkUp(address) }
        case let .measure(user, slot):
            nodes[address]?.peripheral.omron?.measure(slot, user: user)
        case .pressStart:
            // START pressed: what the cuff does then are the steps after it, which the test performs in turn.
            break
        }
        return true
    }
}
