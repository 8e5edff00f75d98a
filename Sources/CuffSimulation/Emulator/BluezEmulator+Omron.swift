import BlueZ
import GATTHealth

/// An Omron cuff's own protocol (docs/omron.md) on cuff-sim's bluetoothd: each write handed to the cuff's
/// ``OmronCuff``, what it answers notified, and the log line it gives written.
extension BluezEmulator {
    func writeOmronUnlock(_ index: Int, _ value: [UInt8]) async throws(ATTError) {
        guard var omron = cuffs[index].omron else { throw .writeNotPermitted }
        let reaction = try omron.writeUnlock(value)
        cuffs[index].omron = omron
        await carryOut(reaction, cuff: index)
    }

    func writeOmronChannel(_ index: Int, channel: Int, _ piece: [UInt8]) async throws(ATTError) {
        guard var omron = cuffs[index].omron else { throw .writeNotPermitted }
        let reaction = omron.writeChannel(piece, channel: channel)
        cuffs[index].omron = omron
        await carryOut(reaction, cuff: index)
    }

    /// Logs what the cuff did and notifies its answer; the first end of transmission starts its timeline.
    private func carryOut(_ reaction: OmronReaction, cuff index: Int) async {
        if let line = reaction.log { log("\(name(index)) \(line)") }
        switch reaction.answer {
        case .unlock(let answer)?:
            await send(index, .omronUnlock, answer, kind: "notified")
        case .pieces(let pieces)?:
            for (channel, piece) in pieces.enumerated() where piece.count <= GattLayout.attPayload {
                await send(index, .omronReceive(channel), piece, kind: "notified")
            }
        case nil:
            break
        }
        if reaction.endedFirstTransmission { startTimeline(index) }
    }

    /// An emulated Omron cuff's counters (docs/omron.md §4), for tests; nil for another cuff.
    public func omronCounters(of address: BluetoothAddress) -> OmronCounters? {
        cuffs.first { $0.spec.address == address }?.omron?.counters
    }

    /// What an emulated Omron cuff's clock block shows (docs/omron.md §4a), for tests; nil without one.
    public func omronClock(of address: BluetoothAddress) -> DateTime? {
        cuffs.first { $0.spec.address == address }?.omron?.clock
    }
}
