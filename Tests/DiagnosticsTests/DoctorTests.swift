import Diagnostics
import Foundation
import Testing

@Suite("cuffctl doctor checks")
struct DoctorTests {
    /// A scratch directory standing in for /sys and /var/lib/cuffd.
    final class Scratch {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cuffd-doctor-\(UUID().uuidString)")
        init() { try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: root) }

        func rfkill(_ entry: String, type: String, soft: Bool, hard: Bool) throws {
            let directory = root.appendingPathComponent("sys/class/rfkill/\(entry)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (file, value) in [("type", type), ("name", entry == "rfkill0" ? "hci0" : entry), ("soft", soft ? "1" : "0"), ("hard", hard ? "1" : "0")] {
                try (value + "\n").write(to: directory.appendingPathComponent(file), atomically: true, encoding: .utf8)
            }
        }

        func machine(kernel: KernelBluetooth, policy: Bool = true, store: String? = nil, synchronized: Bool = true) -> Doctor.Machine {
            let policyPath = root.appendingPathComponent("org.cuffd.Gateway1.conf").path
            if policy { _ = FileManager.default.createFile(atPath: policyPath, contents: Data()) }
            return Doctor.Machine(
                kernel: { kernel }, sysfs: root.appendingPathComponent("sys"), busPolicyPaths: [policyPath],
                storePath: store ?? root.appendingPathComponent("health.sqlite").path, clockSynchronized: { synchronized })
        }
    }

    func statuses(_ results: [CheckResult]) -> [String: CheckResult.Status] {
        Dictionary(uniqueKeysWithValues: results.map { ($0.name, $0.status) })
    }

    @Test func aHealthyMachinePasses() throws {
        let scratch = Scratch()
        try scratch.rfkill("rfkill0", type: "bluetooth", soft: false, hard: false)
        let results = Doctor(machine: scratch.machine(kernel: .supported(adapters: [HCIAdapter(name: "hci0", address: "00:1A:7D:DA:71:13", isUp: true)]))).run()
        #expect(results.map(\.name) == ["kernel", "adapters", "rfkill", "bus policy", "store", "clock"])
        #expect(results.allSatisfy { $0.status == .ok }, "\(results)")
        #expect(results[1].detail == "hci0 00:1A:7D:DA:71:13 up")
    }

    @Test func aKernelWithoutBluetoothFails() {
        let results = Doctor(machine: Scratch().machine(kernel: .unsupported(errno: EAFNOSUPPORT))).run()
        #expect(results[0].status == .failure)
        #expect(results[0].detail.contains("Address family not supported"))
        #expect(!results.contains { $0.name == "adapters" })
    }

    @Test func noAdapterFailsAndADownAdapterWarns() {
        let none = Doctor(machine: Scratch().machine(kernel: .supported(adapters: []))).run()
        #expect(statuses(none)["adapters"] == .failure)
        let down = Doctor(machine: Scratch().machine(kernel: .supported(adapters: [HCIAdapter(name: "hci0", address: "00:1A:7D:DA:71:13", isUp: false)]))).run()
        #expect(statuses(down)["adapters"] == .warning)
    }

    @Test(arguments: [(true, false, "soft-blocked"), (false, true, "hardware switch")])
    func blockedRadiosFail(soft: Bool, hard: Bool, phrase: String) throws {
        let scratch = Scratch()
        try scratch.rfkill("rfkill1", type: "wlan", soft: true, hard: true)
        try scratch.rfkill("rfkill0", type: "bluetooth", soft: soft, hard: hard)
        let rfkill = Doctor(machine: scratch.machine(kernel: .supported(adapters: []))).run().first { $0.name == "rfkill" }
        #expect(rfkill?.status == .failure)
        #expect(rfkill?.detail.contains(phrase) == true)
        #expect(rfkill?.detail.contains("hci0") == true)
    }

    @Test func aWorldReadableStoreFails() throws {
        let scratch = Scratch()
        let store = scratch.root.appendingPathComponent("health.sqlite").path
        _ = FileManager.default.createFile(atPath: store, contents: Data(), attributes: [.posixPermissions: 0o644])
        let open = statuses(Doctor(machine: scratch.machine(kernel: .supported(adapters: []), store: store)).run())
        #expect(open["store"] == .failure)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: store)
        let closed = statuses(Doctor(machine: scratch.machine(kernel: .supported(adapters: []), store: store)).run())
        #expect(closed["store"] == .ok)
    }

    @Test func missingPolicyAndUnsyncedClockWarn() {
        let results = statuses(Doctor(machine: Scratch().machine(kernel: .supported(adapters: []), policy: false, synchronized: false)).run())
        #expect(results["bus policy"] == .warning)
        #expect(results["clock"] == .warning)
    }
}
