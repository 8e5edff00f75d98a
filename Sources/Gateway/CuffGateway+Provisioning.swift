import BlueZ
import FoundationEssentials
import GATTHealth

/// What the Gateway does each time a cuff's services are resolved, in order: check the services really
/// exist (docs/reference/BLUEZ-DBUS.md §6), measure and set its clock (docs/reference/GATT-HEALTH.md §10), learn who it is once per bond
/// (Device Information, §11; Blood Pressure Feature, §6), then download new stored records where it
/// keeps them (BPS 1.1 RACP, §7–§8; Omron's memory, docs/omron.md; a Microlife's, §13.12). The link may drop at any step; the task is then canceled.
extension CuffGateway {
    func startProvisioning(_ address: BluetoothAddress) {
        guard let cuff = state.cuffs[address], cuff.provisioning == nil else { return }
        state.cuffs[address]?.provisioning = Task { [weak self] in
            await self?.provision(address)
            await self?.provisioned(address)
        }
    }

    private func provision(_ address: BluetoothAddress) async {
        guard let cuff = state.cuffs[address] else { return }
        let id = cuff.device.id
        guard await servicesPresent(id) else {
            // Canceled while waiting: the link is gone, not its services.
            guard !Task.isCancelled else { return }
            await reconnectForMissingServices(id)
            return
        }
        await databaseMirrored(id)
        await publish(address, await cuff.session.handle(.servicesResolved))
        let clock = await measureClock(id)
        // A clock that can only be written goes first: the cuff may end the link once it has sent its readings.
        if clock == nil { await setDateTimeClock(id) }
        if !cuff.identified { await identify(id) }
        guard !Task.isCancelled else { return }
        // Read first, then stored: the actor's state is not held across the read.
        let level = await batteryLevel(id)
        state.cuffs[address]?.batteryLevel = level
        if let clock { await setClock(id, measured: clock) }
        let characteristics = await bluetooth.characteristics(of: id)
        state.cuffs[address]?.vendorControl = characteristics.first { $0.uuid == QardioArmControlPoint.uuid }?.uuid
        if CuffCatalog.asksForRecords(cuff.device.advertisement), characteristics.contains(where: { $0.uuid == HealthCharacteristic.recordAccessControlPoint.uuid }),
           characteristics.contains(where: { $0.uuid == HealthCharacteristic.bloodPressureRecord.uuid }) {
            await downloadRecords(id)
        }
        if OmronStack.isOffered(in: cuff.device.uuids) || characteristics.contains(where: { $0.uuid == OmronService.receiveChannels[0] }) {
            await downloadOmron(id)
        }
        if isMicrolife(cuff, characteristics) { await downloadMicrolife(id) }
        if let status = await status(address) { emit(.cuffChanged(status)) }
    }

    /// The link's provisioning ended; a capture of the cuff may walk its database now.
    private func provisioned(_ address: BluetoothAddress) async {
        guard !Task.isCancelled else { return }
        state.cuffs[address]?.provisioned = true
        await letCapturesWalk()
    }

    /// After `ServicesResolved`, 0x2A35, 0x2A37 or a vendor's notifying characteristic (Omron's, Microlife's) must be in the mirror; they may still be on their way
    /// (bluez/bluez #1489: ServicesResolved before the objects after an abort), so wait a moment for them.
    private func servicesPresent(_ id: DeviceID) async -> Bool {
        let required: Set<String> = [
            HealthCharacteristic.bloodPressureMeasurement.uuid, HealthCharacteristic.heartRateMeasurement.uuid, OmronService.receiveChannels[0],
            MicrolifeService.notify,
        ]
        let bluetooth = bluetooth
        return await wait(upTo: Self.servicesTimeout, until: {
            await bluetooth.characteristics(of: id).contains { required.contains($0.uuid) }
        })
    }

    /// bluetoothd exports a database at once, but the mirror takes its `InterfacesAdded` one at a time: 0x2A35 there
    /// does not mean the characteristics after it are (0x2A08, 0x2A52, a vendor's), and what provisioning does depends
    /// on them. Waits, at most ``servicesTimeout``, until the mirror holds every characteristic bluetoothd holds beneath
    /// the cuff (docs/reference/BLUEZ-DBUS.md §6).
    private func databaseMirrored(_ id: DeviceID) async {
        guard let onBus = await bluetooth.characteristicsOnBus(of: id) else { return }
        let bluetooth = bluetooth
        _ = await wait(upTo: Self.servicesTimeout, until: { onBus.isSubset(of: Set(await bluetooth.characteristics(of: id).map(\.path))) })
    }

    /// How long characteristics may take to appear after `ServicesResolved`, or Omron's after the health ones.
    static let servicesTimeout: Duration = .seconds(2)
    /// How long notify sessions may take to start once the characteristics are there (`StartNotify` on each,
    /// docs/reference/BLUEZ-DBUS.md §7).
    static let notifyingTimeout: Duration = .seconds(5)

    /// Waits until the notify sessions of `id` are all up, at most ``notifyingTimeout``.
    func notifying(_ id: DeviceID) async -> Bool {
        let bluetooth = bluetooth
        return await wait(upTo: Self.notifyingTimeout, until: { await bluetooth.isNotifying(id) })
    }

    /// Still no health service: drop the link and connect again once (docs/reference/BLUEZ-DBUS.md §6 rule); a cuff that
    /// keeps resolving to nothing is reported, and BlueZ's cache is the likely culprit (§11).
    private func reconnectForMissingServices(_ id: DeviceID) async {
        emit(.problem(id.address, "services resolved without Blood Pressure or Heart Rate characteristics; reconnecting"))
        do {
            try await bluetooth.disconnect(id)
            try await bluetooth.connect(id)
        } catch {
            emit(.problem(id.address, "reconnecting failed: \(error); if this repeats, forget and pair the cuff again"))
        }
    }

    /// Reads the cuff's Current Time and gives the session the offset, before anything held back is
    /// handled: stored records carry time stamps of this clock. Returns the offset and the characteristic.
    private func measureClock(_ id: DeviceID) async -> (offset: Duration, characteristic: GattCharacteristic)? {
        guard let clock = await bluetooth.characteristic(HealthCharacteristic.currentTime.uuid, of: id), clock.isReadable,
              let bytes = try? await bluetooth.readValue(clock.uuid, of: id), let value = try? CurrentTime(decoding: bytes),
              let offset = ClockOffset.measure(value, at: now())
        else { return nil }
        await state.cuffs[id.address]?.session.setClockOffset(offset)
        state.cuffs[id.address]?.clockOffset = offset
        return (offset, clock)
    }

    /// Sets the cuff's clock to the gateway's local time where configured and allowed (CTS writes are
    /// optional, docs/reference/GATT-HEALTH.md §10); what it measures afterwards carries the time just written.
    private func setClock(_ id: DeviceID, measured: (offset: Duration, characteristic: GattCharacteristic)) async {
        guard configuration.clockSync, measured.characteristic.isWritable else {
            emit(.clockSynchronized(id.address, offset: measured.offset, written: false))
            return
        }
        let moment = now()
        let current = ClockOffset.currentTime(at: moment, in: configuration.timeZone)
        do {
            try await bluetooth.writeValue(current.encoded(), to: measured.characteristic.uuid, of: id)
        } catch {
            emit(.problem(id.address, "the cuff refused the clock write: \(error)"))
            emit(.clockSynchronized(id.address, offset: measured.offset, written: false))
            return
        }
        let synchronized = ClockOffset.measure(current, at: moment)
        await state.cuffs[id.address]?.session.setClockOffset(synchronized)
        state.cuffs[id.address]?.clockOffset = synchronized
        emit(.clockSynchronized(id.address, offset: measured.offset, written: true))
    }

    /// Battery Level (0x2A19, docs/reference/GATT-HEALTH.md §11) at each connection, when the cuff has the Battery
    /// Service: it changes between connections, unlike Device Information. nil without one, or for an RFU value.
    private func batteryLevel(_ id: DeviceID) async -> UInt8? {
        guard let level = await bluetooth.characteristic(HealthCharacteristic.batteryLevel.uuid, of: id), level.isReadable,
              let bytes = try? await bluetooth.readValue(level.uuid, of: id)
        else { return nil }
        return (try? BatteryLevel(decoding: bytes))?.percent
    }

    /// Reads Device Information once per bond (docs/reference/GATT-HEALTH.md §11; each string is optional) and the Blood
    /// Pressure Feature, remembers them, and lets the session handle the values it held back.
    private func identify(_ id: DeviceID) async {
        guard let cuff = state.cuffs[id.address] else { return }
        var identity = DeviceIdentity(address: id.address, name: cuff.device.name)
        let present = Set(await bluetooth.characteristics(of: id).map(\.uuid))
        func text(_ characteristic: HealthCharacteristic) async -> String? {
            guard present.contains(characteristic.uuid), let bytes = try? await bluetooth.readValue(characteristic.uuid, of: id) else { return nil }
            return DeviceInformationString(decoding: bytes).value
        }
        identity.manufacturer = await text(.manufacturerNameString)
        identity.model = await text(.modelNumberString)
        identity.serial = await text(.serialNumberString)
        identity.firmware = await text(.firmwareRevisionString)
        identity.hardware = await text(.hardwareRevisionString)
        identity.software = await text(.softwareRevisionString)
        if present.contains(HealthCharacteristic.systemID.uuid), let bytes = try? await bluetooth.readValue(HealthCharacteristic.systemID.uuid, of: id) {
            identity.systemID = try? SystemID(decoding: bytes)
        }
        var feature: BloodPressureFeature?
        if present.contains(HealthCharacteristic.bloodPressureFeature.uuid),
           let bytes = try? await bluetooth.readValue(HealthCharacteristic.bloodPressureFeature.uuid, of: id) {
            feature = try? BloodPressureFeature(decoding: bytes)
        }
        // A link lost mid-way leaves the identity incomplete: try again on the next link. A cuff forgotten
        // meanwhile is not collected any more, and must not be remembered again.
        guard !Task.isCancelled, state.cuffs[id.address]?.device.connected == true else { return }
        // Read afresh: a reading stored while the reads were awaited may have advanced the record.
        var record = state.records[id.address] ?? CuffRecord(address: id.address)
        if let feature { record.feature = feature.rawValue }
        record.identity = identity
        await remember(record)
        state.cuffs[id.address]?.identified = true
        await publish(id.address, await cuff.session.identify(identity))
    }
}
