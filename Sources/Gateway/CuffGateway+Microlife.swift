import BlueZ
import FoundationEssentials
import GATTHealth

/// The download from a Microlife cuff through its own service 0xFFF0 (docs/reference/GATT-HEALTH.md §13.12), on every
/// link: with 0xFFF1 notifying, set its clock to the gateway's local time (where clock sync is on), read the patient
/// IDs for the user selected on the cuff, read its whole memory, and send *disconnect*. Each record is handed to the
/// session under the selected user; the cuff sends its whole memory every time, and the store keeps each reading once
/// (its sync identifier is the time and the record's bytes). No patient ID is ever written: the source writes one only
/// to file readings under it, and nothing it says shows the cuff needs one to send them.
extension CuffGateway {
    /// How long the cuff has to answer a command: 60 s, as the source waits (§13.12); a whole memory sent 20 bytes at a
    /// time may take a while, and nothing says how fast the cuff sends it.
    static let microlifeAnswerTimeout: Duration = .seconds(60)

    /// Whether `cuff` is a Microlife cuff cuffd downloads: named as one (0xFFF0 alone names no cuff) and offering both
    /// of its characteristics.
    func isMicrolife(_ cuff: Cuff, _ characteristics: [GattCharacteristic]) -> Bool {
        CuffCatalog.recognise(cuff.device.advertisement)?.protocolKind == .microlife
            && characteristics.contains { $0.uuid == MicrolifeService.notify } && characteristics.contains { $0.uuid == MicrolifeService.command }
    }

    func downloadMicrolife(_ id: DeviceID) async {
        let address = id.address
        _ = await notifying(id)
        guard !Task.isCancelled else { return }
        do throws(MicrolifeDownloadError) {
            if configuration.clockSync { try await setMicrolifeClock(id) }
            let ids = try decoded("get patient IDs", try await exchange(.patientIDs, "get patient IDs", id)) { payload throws(MicrolifeError) in
                try MicrolifePatientIDs(decoding: payload)
            }
            let records = try decoded("get readings", try await exchange(.readings, "get readings", id)) { payload throws(MicrolifeError) in
                try MicrolifeReading.records(decoding: payload)
            }
            for record in records {
                guard let session = state.cuffs[address]?.session else { return }
                await publish(address, await session.handle(.microlifeRecord(user: ids.selectedUser, record, receivedAt: now())))
            }
            emit(.recordsDownloaded(address, count: records.count))
            try await send(.disconnect, id)
        } catch {
            emit(.problem(address, "the Microlife download stopped: \(error)"))
        }
    }

    /// `payload` decoded by `decode`, or the answer to `command` refused.
    private func decoded<Value>(
        _ command: String, _ payload: [UInt8], _ decode: ([UInt8]) throws(MicrolifeError) -> Value
    ) throws(MicrolifeDownloadError) -> Value {
        do {
            return try decode(payload)
        } catch {
            throw .badAnswer(command: command, error)
        }
    }

    /// *Set date and time* to the gateway's local wall clock; what the cuff measures afterwards carries it.
    private func setMicrolifeClock(_ id: DeviceID) async throws(MicrolifeDownloadError) {
        let moment = now()
        let current = ClockOffset.currentTime(at: moment, in: configuration.timeZone)
        let command: MicrolifeCommand
        do {
            command = try MicrolifeCommand.setDateTime(current.dateTime)
        } catch {
            throw .clock(error)
        }
        try decoded("set date and time", try await exchange(command, "set date and time", id)) { payload throws(MicrolifeError) in
            try MicrolifeFrame.validateAcknowledgement(payload)
        }
        let synchronized = ClockOffset.measure(current, at: moment)
        await state.cuffs[id.address]?.session.setClockOffset(synchronized)
        state.cuffs[id.address]?.clockOffset = synchronized
        // Written without being read first: no offset before the write to report (as for Date Time 0x2A08).
        emit(.clockSynchronized(id.address, offset: nil, written: true))
    }

    /// Writes `command` and waits for its answer's payload.
    private func exchange(_ command: MicrolifeCommand, _ name: String, _ id: DeviceID) async throws(MicrolifeDownloadError) -> [UInt8] {
        guard let answers = state.cuffs[id.address]?.microlifeAnswers else { throw .noAnswer(command: name) }
        state.cuffs[id.address]?.microlifeAssembler.reset()
        await answers.clear()
        try await send(command, id)
        switch await answers.next(within: Self.microlifeAnswerTimeout, on: clock) {
        case .success(let payload)?: return payload
        case .failure(let error)?: throw .badAnswer(command: name, error)
        case nil: throw .noAnswer(command: name)
        }
    }

    /// Writes `command` in its pieces of at most 20 bytes (§13.12).
    private func send(_ command: MicrolifeCommand, _ id: DeviceID) async throws(MicrolifeDownloadError) {
        for piece in command.writes() {
            do {
                try await bluetooth.writeValue(piece, to: MicrolifeService.command, of: id, type: .request)
            } catch {
                throw .bluez(error)
            }
        }
    }

    /// A notification of 0xFFF1: joined into the answer frame the download waits for.
    func microlifeNotification(_ address: BluetoothAddress, _ bytes: [UInt8]) async {
        guard let answers = state.cuffs[address]?.microlifeAnswers,
              let whole = state.cuffs[address]?.microlifeAssembler.append(bytes) else { return }
        await answers.deliver(whole)
    }
}
