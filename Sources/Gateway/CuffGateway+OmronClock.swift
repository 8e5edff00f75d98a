import BlueZ
import GATTHealth

/// An Omron cuff's clock in its settings area (docs/omron.md §4a), handled as a Current Time is (docs/gateway.md,
/// "Time"): read before the records, so their time stamps get the offset it shows; set to local time after
/// them where configured and where the model's clock is known.
extension CuffGateway {
    /// Reads the model's clock block and gives the session the offset it shows; returns the block.
    func readOmronClock(_ model: OmronModel, _ id: DeviceID, _ inbox: OmronInbox) async throws(OmronDownloadError) -> [UInt8]? {
        guard let clock = model.clock else { return nil }
        let block = try await exchange(.read(model.settingsReadAddress + clock.offset, count: UInt8(clock.size)), model.stack, id, inbox).data
        if let shown = clock.time(in: block), let offset = ClockOffset.measure(CurrentTime(dateTime: shown, adjustReason: []), at: now()) {
            await state.cuffs[id.address]?.session.setClockOffset(offset)
            state.cuffs[id.address]?.clockOffset = offset
        }
        return block
    }

    /// Writes local time into the clock block (its other bytes kept), where `[Gateway] ClockSync` allows.
    func writeOmronClock(_ model: OmronModel, block: [UInt8], _ id: DeviceID, _ inbox: OmronInbox) async throws(OmronDownloadError) {
        guard let clock = model.clock else { return }
        let measured = state.cuffs[id.address]?.clockOffset
        guard configuration.clockSync else {
            if let measured { emit(.clockSynchronized(id.address, offset: measured, written: false)) }
            return
        }
        let moment = now()
        let local = ClockOffset.currentTime(at: moment, in: configuration.timeZone).dateTime
        _ = try await exchange(.write(model.settingsWriteAddress + clock.offset, clock.setting(local, in: block)), model.stack, id, inbox)
        let synchronized = ClockOffset.measure(CurrentTime(dateTime: local, adjustReason: []), at: moment)
        await state.cuffs[id.address]?.session.setClockOffset(synchronized)
        state.cuffs[id.address]?.clockOffset = synchronized
        if let measured {
            emit(.clockSynchronized(id.address, offset: measured, written: true))
        } else {
            emit(.problem(id.address, "the cuff's clock showed no real time (reset?); it was set to local time"))
        }
    }
}
