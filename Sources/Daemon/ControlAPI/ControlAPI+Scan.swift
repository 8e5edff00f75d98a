import BlueZ
import DBus
import Gateway
import ReadingQueries

/// `Scan` of `org.cuffd.Gateway1` (docs/dbus-api.md): the cuffs in radio range, for readers.
extension ControlAPI {
    /// The longest scan asked for, in seconds.
    static let longestScan = 120.0
    /// The most cuffs a scan may be asked to wait for.
    static let mostAwaitedCuffs = 100

    /// `Scan(d seconds, as until)`: discovery for `seconds`; with addresses in `until`, it ends as soon as each of them
    /// is listed (`cuffctl scan --until`), `seconds` then bounding it.
    var scanMethod: DBusInterface.Method {
        .init(
            "Scan", inputs: [.init("seconds", .double), .init("until", .array(.string))],
            outputs: [.init("cuffs", .array(.dictionary(key: .string, value: .variant)))]
        ) { call in
            _ = try await self.policy.authorize(call, .reader)
            let seconds: Double = try call.argument(0)
            guard seconds > 0, seconds <= Self.longestScan else {
                throw ControlError.invalidArguments("scan for 0 to \(Int(Self.longestScan)) s, not \(seconds)")
            }
            let named: [String] = try call.argument(1)
            guard named.count <= Self.mostAwaitedCuffs else {
                throw ControlError.invalidArguments("scan until up to \(Self.mostAwaitedCuffs) cuffs are seen, not \(named.count)")
            }
            let awaited = Set(try named.map(Self.address))
            let seen = try await self.request { try await $0.scan(for: Self.duration(seconds), until: awaited) }
            return [seen.map(\.scanEntry).dbusValue]
        }
    }
}
