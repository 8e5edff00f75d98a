import DBus
import DBusTestSupport
import Foundation
import Testing

/// `cuffctl scan --until` over cuffd and cuff-sim (docs/cuffctl.md): a cuff named that never shows ends the scan at
/// `--timeout`, the cuffs seen listed and exit 68 naming the one missing; cuffd refuses what `Scan` cannot wait for.
@Suite("cuffctl scan --until", .serialized)
struct ScanUntilTests {
    /// omron-two-users.json's cuff.
    static let cuff = "28:FF:B2:10:4C:31"
    static let absent = "28:FF:B2:10:4C:00"

    @Test("A cuff named that never shows: the cuff seen listed, exit 68 naming the other at --timeout; cuffd refuses what is no address and more than 100 cuffs (InvalidArguments), and the shape before until, (d), by its signature (InvalidArgs)")
    func aCuffThatNeverShows() async throws {
        // bluetoothd keeps the cuff an hour after a discovery (TemporaryTimeout), so the second scan lists it at once.
        let adapter = "\"adapter\": {\"address\": \"00:1A:7D:DA:71:13\"}"
        let stack = try await Stack.make(
            scenario: "omron-two-users.json", edits: [adapter: "\"adapter\": {\"address\": \"00:1A:7D:DA:71:13\", \"temporaryTimeout\": 3600}"])
        try await stack.startDaemon()
        let seen = try await stack.cuffctl(["scan", "--until", Self.cuff, "--timeout", "60"])
        #expect(seen.status == 0, "\(seen.error)")
        // The timeout is what is tested here: the cuff named never comes.
        let scan = try await stack.cuffctl(["scan", "--until", Self.cuff, "--until", Self.absent.lowercased(), "--timeout", "1"])
        #expect(scan.status == 68, "\(scan.error)")
        #expect(scan.output.hasPrefix("\(Self.cuff) HEM-7361T\n"), "\(scan.output)")
        #expect(scan.error == "cuffctl: not seen within 1.0 s: \(Self.absent) (is it advertising (in pairing mode, or after a measurement)?)\n")

        let connection = try DBusConnection.open(.address(stack.bus.address), label: "test", callTimeout: testDeadline)
        defer { connection.close() }
        let notAnAddress = await HostileArgumentTests.errorName(connection, "Scan", [.double(1), .strings([Self.cuff, "28:FF:B2:10:4C"])])
        #expect(notAnAddress == "org.cuffd.Error.InvalidArguments")
        let many = (0...100).map { String(format: "28:FF:B2:10:4D:%02X", $0) }
        #expect(await HostileArgumentTests.errorName(connection, "Scan", [.double(1), .strings(many)]) == "org.cuffd.Error.InvalidArguments")
        #expect(await HostileArgumentTests.errorName(connection, "Scan", [.double(1)]) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(try await stack.stopDaemon() == 0)
    }
}
