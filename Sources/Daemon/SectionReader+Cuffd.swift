import BlueZ
import GATTHealth
import INIConfiguration

/// The values only cuffd.conf has: an adapter, and a `[Cuff …]` section.
extension SectionReader {
    /// An adapter as BlueZ names it (`hci0`, `/org/bluez/hci0`'s last part) or its address.
    func adapter(_ key: String) throws(ConfigurationError) -> String? {
        guard let entry = entry(key), !entry.value.isEmpty else { return nil }
        let number = entry.value.hasPrefix("hci") ? entry.value.dropFirst(3) : ""
        guard (!number.isEmpty && number.count <= 5 && number.allSatisfy { ("0"..."9").contains($0) }) || BluetoothAddress(entry.value) != nil else {
            throw fail(entry.line, "\(key) must be an adapter like hci0 or an address like 00:1A:7D:DA:71:13, not \"\(entry.value.prefix(80))\"")
        }
        return entry.value
    }

    /// `[Cuff XX:XX:XX:XX:XX:XX]` with `Name=`, `User0=`…`User254=`, `NoUser=`, `Quirk=`.
    func cuff(existing: [Configuration.Cuff]) throws(ConfigurationError) -> Configuration.Cuff {
        let addressText = String(section.header.dropFirst("Cuff ".count)).trimmingWhitespace()
        guard let address = BluetoothAddress(addressText) else {
            throw fail(section.line, "\"\(addressText)\" is not a Bluetooth address like C4:F3:12:53:F2:C9")
        }
        guard !existing.contains(where: { $0.address == address }) else { throw fail(section.line, "[Cuff \(address)] appears twice") }
        try allow(["Name", "NoUser", "Quirk"], orMatching: { $0.hasPrefix("User") })
        var people: [UInt8: String] = [:]
        for entry in section.entries where entry.key.hasPrefix("User") {
            guard let userID = UInt8(entry.key.dropFirst(4)), userID < 255 else {
                throw fail(entry.line, "\"\(entry.key)\" is not User0 … User254 (255 is the cuff's unknown user)")
            }
            guard !entry.value.isEmpty else { throw fail(entry.line, "\(entry.key) needs a person's name") }
            people[userID] = entry.value
        }
        var quirkOverride: Configuration.QuirkOverride?
        if let entry = entry("Quirk") {
            if entry.value == "none" {
                quirkOverride = Configuration.QuirkOverride.none
            } else if let known = BloodPressureQuirk(name: entry.value) {
                quirkOverride = .quirk(known)
            } else {
                let names = (BloodPressureQuirk.allCases.map(\.rawValue) + ["none"]).joined(separator: ", ")
                throw fail(entry.line, "Quirk must be one of \(names), not \"\(entry.value)\"")
            }
        }
        return Configuration.Cuff(
            address: address, name: string("Name"), people: people, personWithoutUserID: string("NoUser"), quirkOverride: quirkOverride)
    }
}
