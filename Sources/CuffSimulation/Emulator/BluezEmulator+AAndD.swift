import BlueZ
import GATTHealth

/// A&D's command characteristic (docs/reference/GATT-HEALTH.md §13.8): the disconnect request ends the link, as the cuff's
/// own `disconnect` step does, once the write is answered; other commands are taken and logged (their meaning is not
/// in the sources).
extension BluezEmulator {
    func commandAAndD(_ index: Int, _ value: [UInt8]) {
        guard value == AAndDService.disconnectRequest else {
            log("\(name(index)) A&D command written: \(Hex.bytes(value))")
            return
        }
        log("\(name(index)) A&D disconnect request: the cuff ends the link")
        spawn { await self.dropLink(index, byHost: false) }
    }
}
