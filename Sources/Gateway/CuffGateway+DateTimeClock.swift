import BlueZ
import GATTHealth

/// A cuff that takes its clock as a Date Time 0x2A08 written into its Blood Pressure service instead of through Current
/// Time (A&D: docs/reference/GATT-HEALTH.md §13.8). The characteristic is written, not read (neither A&D's sample nor
/// obniz reads it), so no offset is measured before; what the cuff measures afterwards carries the time just written.
extension CuffGateway {
    /// Writes local time into the cuff's Date Time, where `[Gateway] ClockSync` allows and the cuff has a writable one.
    func setDateTimeClock(_ id: DeviceID) async {
        let dateTime = await bluetooth.characteristics(of: id).first {
            $0.uuid == HealthCharacteristic.dateTime.uuid && $0.serviceUUID == HealthService.bloodPressure.uuid && $0.isWritable
        }
        guard let dateTime, configuration.clockSync else { return }
        let moment = now()
        let local = ClockOffset.currentTime(at: moment, in: configuration.timeZone).dateTime
        do {
            try await bluetooth.writeValue(local.encoded(), to: dateTime.uuid, of: id)
        } catch {
            emit(.problem(id.address, "the cuff refused the clock write: \(error)"))
            return
        }
        let synchronized = ClockOffset.measure(CurrentTime(dateTime: local, adjustReason: []), at: moment)
        await state.cuffs[id.address]?.session.setClockOffset(synchronized)
        state.cuffs[id.address]?.clockOffset = synchronized
        emit(.clockSynchronized(id.address, offset: nil, written: true))
    }
}
