import BlueZ
import GATTHealth

/// A Microlife cuff's own protocol (docs/reference/GATT-HEALTH.md §13.12) on cuff-sim's bluetoothd: each write to
/// 0xFFF2 handed to the cuff's ``MicrolifeCuff``, its answer notified on 0xFFF1 piece by piece, *disconnect* ending the
/// link once the write is answered.
extension BluezEmulator {
    func commandMicrolife(_ index: Int, _ value: [UInt8]) async throws(ATTError) {
        guard var microlife = cuffs[index].microlife else { throw .writeNotPermitted }
        let reaction = microlife.write(value)
        cuffs[index].microlife = microlife
        if let line = reaction.log { log("\(name(index)) \(line)") }
        for piece in reaction.notifications { await send(index, .microlifeNotify, piece, kind: "notified") }
        if reaction.disconnects { spawn { await self.dropLink(index, byHost: false) } }
    }

    /// What an emulated Microlife cuff's clock was last set to, for tests; nil for another cuff or before it was set.
    public func microlifeClock(of address: BluetoothAddress) -> DateTime? {
        cuffs.first { $0.spec.address == address }?.microlife?.clock
    }
}
