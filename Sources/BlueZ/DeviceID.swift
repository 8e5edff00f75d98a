/// How cuffd names a remote device: the adapter's address and the device's, never an object path —
/// paths carry ATT handles and adapter indexes that change (docs/reference/BLUEZ-DBUS.md §1).
public struct DeviceID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var adapter: BluetoothAddress
    public var address: BluetoothAddress

    public init(adapter: BluetoothAddress, address: BluetoothAddress) {
        self.adapter = adapter
        self.address = address
    }

    public var description: String { "\(address) (via \(adapter))" }

    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.adapter, lhs.address) < (rhs.adapter, rhs.address) }
}
