import CLinux
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The local checks of `cuffctl doctor`: what must hold on this machine for cuffd to reach a cuff and keep
/// its readings safe. Each probe is injectable so the checks can be tested without Bluetooth hardware.
public struct Doctor: Sendable {
    /// What the checks look at.
    public struct Machine: Sendable {
        public var kernel: @Sendable () -> KernelBluetooth
        /// Usually `/sys`.
        public var sysfs: URL
        /// Where `make install` puts the bus policy, in search order.
        public var busPolicyPaths: [String]
        public var storePath: String
        /// True when the kernel's clock discipline reports the clock synchronised.
        public var clockSynchronized: @Sendable () -> Bool

        public init(
            kernel: @escaping @Sendable () -> KernelBluetooth, sysfs: URL, busPolicyPaths: [String], storePath: String,
            clockSynchronized: @escaping @Sendable () -> Bool
        ) {
            self.kernel = kernel
            self.sysfs = sysfs
            self.busPolicyPaths = busPolicyPaths
            self.storePath = storePath
            self.clockSynchronized = clockSynchronized
        }

        /// This machine, with the store at `storePath`.
        public static func current(storePath: String) -> Machine {
            Machine(
                kernel: KernelBluetooth.probe, sysfs: URL(fileURLWithPath: "/sys"),
                busPolicyPaths: [
                    "/usr/share/dbus-1/system.d/org.cuffd.Gateway1.conf", "/etc/dbus-1/system.d/org.cuffd.Gateway1.conf",
                    "/usr/local/share/dbus-1/system.d/org.cuffd.Gateway1.conf",
                ],
                storePath: storePath, clockSynchronized: kernelClockSynchronized)
        }
    }

    public let machine: Machine

    public init(machine: Machine) { self.machine = machine }

    /// Every check, in the order a person would fix them.
    public func run() -> [CheckResult] {
        adapterChecks() + [rfkillCheck(), busPolicyCheck(), storeCheck(), clockCheck()]
    }

    func adapterChecks() -> [CheckResult] {
        switch machine.kernel() {
        case let .unsupported(code):
            return [CheckResult(
                "kernel", .failure,
                "no Bluetooth in this kernel (AF_BLUETOOTH: \(String(cString: strerror(code)))); load the bluetooth module or use a kernel built with CONFIG_BT")]
        case let .supported(adapters):
            let kernel = CheckResult("kernel", .ok, "Bluetooth supported")
            guard !adapters.isEmpty else {
                return [kernel, CheckResult("adapters", .failure, "no Bluetooth adapter (hciN) found; plug one in or check dmesg")]
            }
            let list = adapters.map { "\($0.name) \($0.address) \($0.isUp ? "up" : "down")" }.joined(separator: ", ")
            let anyUp = adapters.contains(where: \.isUp)
            return [kernel, CheckResult("adapters", anyUp ? .ok : .warning, anyUp ? list : list + "; none is up (bluetoothctl power on)")]
        }
    }

    func rfkillCheck() -> CheckResult {
        let switches = RfkillSwitch.bluetoothSwitches(sysfs: machine.sysfs)
        if let hard = switches.first(where: \.hardBlocked) {
            return CheckResult("rfkill", .failure, "\(hard.name) is blocked by a hardware switch")
        }
        if let soft = switches.first(where: \.softBlocked) {
            return CheckResult("rfkill", .failure, "\(soft.name) is soft-blocked; run: rfkill unblock bluetooth")
        }
        return CheckResult("rfkill", .ok, switches.isEmpty ? "no Bluetooth rfkill switch" : "not blocked")
    }

    func busPolicyCheck() -> CheckResult {
        guard let path = machine.busPolicyPaths.first(where: FileManager.default.fileExists) else {
            return CheckResult("bus policy", .warning, "org.cuffd.Gateway1.conf is not installed (make install), so cuffd cannot own its bus name")
        }
        return CheckResult("bus policy", .ok, path)
    }

    func storeCheck() -> CheckResult {
        let path = machine.storePath
        let directory = (path as NSString).deletingLastPathComponent
        var status = stat()
        guard stat(path, &status) == 0 else {
            guard FileManager.default.fileExists(atPath: directory) else {
                return CheckResult("store", .warning, "\(directory) does not exist yet (systemd creates it through StateDirectory=)")
            }
            return CheckResult("store", .ok, "\(path) will be created on first start")
        }
        if status.st_mode & 0o007 != 0 {
            return CheckResult("store", .failure, "\(path) is readable by every user (mode \(String(status.st_mode & 0o777, radix: 8))); run: chmod 600 \(path)")
        }
        return CheckResult("store", .ok, "\(path), mode \(String(status.st_mode & 0o777, radix: 8))")
    }

    func clockCheck() -> CheckResult {
        machine.clockSynchronized()
            ? CheckResult("clock", .ok, "synchronised")
            : CheckResult("clock", .warning, "the system clock is not synchronised; receive times and clock sync of cuffs may be off (timedatectl set-ntp true)")
    }
}

/// adjtimex(2): the kernel's view of clock synchronisation.
@Sendable
func kernelClockSynchronized() -> Bool { cuffd_clock_synchronized() == 1 }
