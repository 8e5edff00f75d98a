import BlueZ
import GATTHealth

/// The cuff's clock on Current Time 0x2A2B (docs/reference/GATT-HEALTH.md §10), or on a write-only Date Time 0x2A08 in
/// 0x1810 (A&D, §13.8): reads show it running, writes set it where the scenario lets them. Every read and write names the
/// clock in the log, so a test can check what a client's sync did.
extension BluezEmulator {
    /// What the cuff's clock shows now, e.g. for a test that checks a client's sync; nil for a cuff
    /// without a clock a client can reach (Current Time, or a Date Time clock) or an address that is not a cuff.
    public func clock(of address: BluetoothAddress) -> DateTime? {
        guard let index = cuffs.firstIndex(where: { $0.spec.address == address }),
              cuffs[index].spec.services.contains(.currentTime) || cuffs[index].spec.clock?.characteristic == .dateTime else { return nil }
        return cuffs[index].clock.currentTime().dateTime
    }

    func readClock(_ index: Int) -> [UInt8] {
        let value = cuffs[index].clock.currentTime()
        log("\(name(index)) 0x2A2B read: clock \(value.dateTime.isoString ?? "unknown")")
        return value.encoded()
    }

    /// A write of a 10-byte Current Time sets the clock; other lengths and impossible times are refused.
    func setClock(_ index: Int, _ value: [UInt8]) throws(ATTError) {
        try cuffs[index].clock.set(value)
        let now = cuffs[index].clock.currentTime().dateTime.isoString ?? "unknown"
        log("\(name(index)) 0x2A2B written: \(Hex.bytes(value)); clock set to \(now)")
    }

    /// A write of a 7-byte Date Time sets the clock of a cuff that takes it so (A&D); other lengths and impossible times
    /// are refused as a Current Time's are.
    func setDateTimeClock(_ index: Int, _ value: [UInt8]) throws(ATTError) {
        try cuffs[index].clock.set(dateTime: value)
        let now = cuffs[index].clock.currentTime().dateTime.isoString ?? "unknown"
        log("\(name(index)) 0x2A08 written: \(Hex.bytes(value)); clock set to \(now)")
    }
}
