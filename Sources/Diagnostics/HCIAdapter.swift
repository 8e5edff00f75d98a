import CBluetooth

#if canImport(Glibc)
import Glibc
#endif

/// A Bluetooth controller as the kernel's HCI layer reports it (libbluetooth `hci_devinfo`), independent
/// of bluetoothd.
public struct HCIAdapter: Equatable, Sendable {
    /// `hci0`, …
    public let name: String
    public let address: String
    /// HCI_UP: the controller is powered and initialised.
    public let isUp: Bool

    public init(name: String, address: String, isUp: Bool) {
        self.name = name
        self.address = address
        self.isUp = isUp
    }
}

/// What the kernel says about Bluetooth.
public enum KernelBluetooth: Equatable, Sendable {
    /// The kernel has no AF_BLUETOOTH (no CONFIG_BT, or the module is not loaded).
    case unsupported(errno: Int32)
    case supported(adapters: [HCIAdapter])

    /// Asks the kernel through an HCI socket, then lists every controller.
    public static func probe() -> KernelBluetooth {
        let probe = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_HCI)
        guard probe >= 0 else { return .unsupported(errno: errno) }
        close(probe)
        var adapters: [HCIAdapter] = []
        for identifier in 0 ..< Int32(HCI_MAX_DEV) {
            var info = hci_dev_info()
            guard hci_devinfo(identifier, &info) == 0 else { continue }
            let name = withUnsafeBytes(of: info.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            var text = [CChar](repeating: 0, count: 18)
            _ = ba2str(&info.bdaddr, &text)
            let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            adapters.append(HCIAdapter(name: name, address: address, isUp: info.flags & (1 << UInt32(HCI_UP)) != 0))
        }
        return .supported(adapters: adapters)
    }
}
