import Foundation

/// A Bluetooth rfkill switch from sysfs (`/sys/class/rfkill/rfkillN/{type,name,soft,hard}`,
/// Documentation/ABI/stable/sysfs-class-rfkill).
public struct RfkillSwitch: Equatable, Sendable {
    public let name: String
    /// Blocked by software (`rfkill block`): `rfkill unblock bluetooth` clears it.
    public let softBlocked: Bool
    /// Blocked by a hardware switch or the firmware.
    public let hardBlocked: Bool

    /// The Bluetooth switches under `sysfs` (normally `/sys`).
    public static func bluetoothSwitches(sysfs: URL) -> [RfkillSwitch] {
        let directory = sysfs.appendingPathComponent("class/rfkill")
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return entries.sorted().compactMap { entry in
            let base = directory.appendingPathComponent(entry)
            func read(_ file: String) -> String? {
                (try? String(contentsOf: base.appendingPathComponent(file), encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard read("type") == "bluetooth" else { return nil }
            return RfkillSwitch(name: read("name") ?? entry, softBlocked: read("soft") == "1", hardBlocked: read("hard") == "1")
        }
    }
}
