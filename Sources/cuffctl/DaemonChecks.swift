import DBus
import Diagnostics

/// `cuffctl doctor`'s checks over the bus: is bluetoothd there, is cuffd there and what does it say.
enum DaemonChecks {
    static func run(_ options: BusOptions) async -> [CheckResult] {
        let connection: DBusConnection
        do {
            connection = try DBusConnection.open(options.bus.map { .address($0) } ?? .system, label: "doctor")
        } catch {
            return [CheckResult("bus", .failure, "cannot connect to the bus: \(error.message); is dbus running?")]
        }
        defer { connection.close() }
        var results: [CheckResult] = []
        if (try? await connection.nameOwner(of: "org.bluez")) != nil {
            results.append(CheckResult("bluetoothd", .ok, "org.bluez is on the bus"))
        } else {
            results.append(CheckResult("bluetoothd", .failure, "org.bluez is not on the bus; systemctl start bluetooth"))
        }
        let cuffd = CuffdConnection(connection: connection)
        do {
            let status = try await cuffd.property("Status")
            let version = try await cuffd.property("Version")
            results.append(CheckResult("cuffd", .ok, "cuffd \(version.plain): \(status.plain)"))
        } catch let failure as CuffctlFailure {
            results.append(CheckResult("cuffd", failure.status == ExitStatus.permissionDenied ? .warning : .failure, failure.message))
        } catch {
            results.append(CheckResult("cuffd", .failure, "\(error)"))
        }
        return results
    }
}
