import BlueZ
import FoundationEssentials
import GATTHealth

/// The UUIDs the Gateway keeps notifications enabled on, whichever of them a cuff has: measurements and
/// cuff pressure (0x2A35, 0x2A36), heart rate (0x2A37), the BPS 1.1 record download pair (0x2B36
/// records, 0x2A52 RACP responses), QardioArm's measurement phases, Omron's receive channels and unlock
/// answers (docs/omron.md §1), and a Microlife's answers on 0xFFF1 (docs/reference/GATT-HEALTH.md §13.12).
let subscribedCharacteristics: Set<String> = Set([
    HealthCharacteristic.bloodPressureMeasurement, .intermediateCuffPressure, .heartRateMeasurement,
    .bloodPressureRecord, .recordAccessControlPoint,
].map(\.uuid)).union([QardioArmControlPoint.uuid, OmronService.unlock, MicrolifeService.notify]).union(OmronService.receiveChannels)

extension CuffGateway {
    /// Starts collecting from `device` if it is a cuff: bonded with a health service, being paired by
    /// cuffd, named by the configuration, or remembered as one that bonds anew on every link.
    func consider(_ device: Device) async {
        guard device.id.adapter == state.adapter?.address, state.cuffs[device.id.address] == nil, !state.forgetting.contains(device.id.address) else { return }
        let offersHealth = device.uuids.contains(HealthService.bloodPressure.uuid) || device.uuids.contains(HealthService.heartRate.uuid)
            || OmronStack.isOffered(in: device.uuids) || CuffCatalog.recognise(device.advertisement)?.protocolKind == .microlife
        let wanted = (device.paired && offersHealth) || configuration.knownCuffs.contains(device.id.address) || broker.isPairing(device.id.address)
            || rebondingModel(device.id.address) != nil
        guard wanted else { return }
        await adopt(device)
    }

    /// Collects from `device`: its session, its notifications, and what a link that is already up needs.
    /// Reached only from ``consider(_:)``, with no suspension since its check (``State/collect(_:)``).
    func adopt(_ device: Device) async {
        let address = device.id.address
        let known = state.records[address]?.identity
        var identity = known ?? DeviceIdentity(address: address)
        identity.name = device.name ?? identity.name
        let session = CuffSession(
            device: identity, users: configuration.users, store: store, quirk: configuration.quirkOverrides[address],
            identified: known != nil, timeZone: configuration.timeZone, spool: spool, retry: configuration.storeRetry,
            heartRateWindow: configuration.heartRateFlushInterval, clock: clock,
            laterEvents: { [weak self] events in await self?.publish(address, events) })
        state.collect(Cuff(device: device, session: session, identified: known != nil))
        await bluetooth.keepNotifying(device.id, uuids: subscribedCharacteristics)
        if device.connected {
            // A link that survived a cuffd restart (BlueZ keeps links when a client leaves, §3).
            await publish(address, await session.handle(.connected))
            if device.servicesResolved { startProvisioning(address) }
        } else if device.paired {
            await dropBond(device.id)
        } else {
            await rebondIfAdvertising(device)
        }
        if let status = await status(address) { emit(.cuffChanged(status)) }
    }

    func deviceChanged(_ device: Device, _ changed: Set<String>) async {
        let address = device.id.address
        guard let previous = state.cuffs[address] else { return }
        state.cuffs[address]?.device = device
        if device.connected != previous.device.connected {
            if device.connected {
                await publish(address, await previous.session.handle(.connected))
            } else {
                await linkLost(address)
                await dropBond(device.id)
            }
        }
        if device.connected, device.servicesResolved, !previous.device.servicesResolved {
            startProvisioning(address)
        }
        let visible: Set<String> = ["Connected", "Paired", "Trusted", "Name", "*"]
        if !changed.isDisjoint(with: visible), let status = await status(address) { emit(.cuffChanged(status)) }
        await rebondIfAdvertising(device)
    }

    /// The link went down: provisioning and any download stop; the session says so.
    func linkLost(_ address: BluetoothAddress) async {
        guard let cuff = state.cuffs[address] else { return }
        cuff.provisioning?.cancel()
        state.cuffs[address]?.provisioning = nil
        state.cuffs[address]?.provisioned = false
        state.cuffs[address]?.download = nil
        state.cuffs[address]?.device.connected = false
        state.cuffs[address]?.device.servicesResolved = false
        if await cuff.session.state != .disconnected {
            await publish(address, await cuff.session.handle(.disconnected))
        }
    }

    /// Publishes a value as a decoded packet, then routes it by characteristic: measurements to the session
    /// (0x2A35 not on an Omron cuff), record segments and RACP responses to the download, vendor phases to the
    /// log, Omron notifications to the Omron download.
    func value(_ address: BluetoothAddress, _ uuid: String, _ bytes: [UInt8], _ receivedAt: Date) async {
        guard let cuff = state.cuffs[address] else { return }
        let characteristic = BluetoothUUID.shortNumber(uuid).flatMap(HealthCharacteristic.init(rawValue:))
        if let characteristic, let decoded = try? DecodedCharacteristic.decode(characteristic, bytes, quirk: cuff.session.quirk) {
            emit(.packet(address, decoded, payload: bytes))
        }
        switch characteristic {
        case .bloodPressureMeasurement? where OmronStack.isOffered(in: cuff.device.uuids):
            // One source per cuff (docs/omron.md §6): an Omron cuff's readings come from its memory, which holds
            // this one too; stored from both, it would be two readings (the bytes differ, so dedupe cannot join them).
            break
        case .bloodPressureMeasurement?, .intermediateCuffPressure?, .heartRateMeasurement?:
            await publish(address, await cuff.session.handle(.value(characteristic!, bytes, receivedAt: receivedAt)))
        case .bloodPressureRecord?:
            await recordSegment(address, bytes, receivedAt)
        case .recordAccessControlPoint?:
            await recordAccessResponse(address, bytes)
        default:
            if uuid == QardioArmControlPoint.uuid {
                vendorPhase(address, bytes)
            } else if uuid == MicrolifeService.notify {
                await microlifeNotification(address, bytes)
            } else {
                await omronNotification(address, uuid, bytes)
            }
        }
    }

    /// Passes what a session produced on to subscribers and measurement watchers, and remembers what
    /// readings tell about the cuff.
    func publish(_ address: BluetoothAddress, _ produced: [SessionEvent]) async {
        for event in produced {
            if case let .readingStored(reading, _) = event {
                state.cuffs[address]?.lastReadingAt = reading.receivedAt
                if let sequence = reading.sequenceNumber { await rememberSequence(address, sequence) }
            }
            emit(.session(address, event))
            for watcher in state.watchers.values { watcher.deliver(address, event) }
        }
    }

    func rememberSequence(_ address: BluetoothAddress, _ sequence: UInt16) async {
        var record = state.records[address] ?? CuffRecord(address: address)
        guard record.lastSequenceNumber.map({ sequence > $0 }) ?? true else { return }
        record.lastSequenceNumber = sequence
        await remember(record)
    }

    func remember(_ record: CuffRecord) async {
        state.records[record.address] = record
        do {
            try await registry.save(record)
        } catch {
            emit(.problem(record.address, "cannot save what cuffd knows about the cuff: \(error)"))
        }
    }
}
