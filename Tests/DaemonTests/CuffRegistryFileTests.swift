import BlueZ
import Daemon
import Foundation
import Gateway
import GATTHealth
import Testing

@Suite("The cuff registry file")
struct CuffRegistryFileTests {
    static let store = UUID()

    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("cuffs-\(UUID().uuidString).json").path
    }

    @Test("Records survive a reopen, identity with its System ID included; the file is 0600")
    func roundTrip() async throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var record = CuffRecord(address: BluetoothAddress("C4:F3:12:53:F2:C9")!)
        record.identity = DeviceIdentity(
            address: record.address, name: "BP-1", manufacturer: "ACME", serial: "0001",
            systemID: SystemID(manufacturerIdentifier: 0x05_0403_0201, organizationallyUniqueIdentifier: 0x0C0B0A))
        record.feature = 0x0027
        record.lastSequenceNumber = 41
        let registry = try CuffRegistryFile(path: path, storeIdentifier: Self.store)
        #expect(await registry.records().isEmpty)
        try await registry.save(record)

        let reopened = try CuffRegistryFile(path: path, storeIdentifier: Self.store)
        #expect(await reopened.records() == [record.address: record])
        #expect(await reopened.records()[record.address]?.identity?.stableKey == "eui64:0C0B0A0504030201")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        try await reopened.remove(record.address)
        #expect(try await CuffRegistryFile(path: path, storeIdentifier: Self.store).records().isEmpty)
    }

    @Test("Another store's registry is set aside; a registry from before stores were named is this store's")
    func tiedToItsStore() async throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var record = CuffRecord(address: BluetoothAddress("C4:F3:12:53:F2:C9")!)
        record.lastSequenceNumber = 41
        try await CuffRegistryFile(path: path, storeIdentifier: UUID()).save(record)
        let other = try CuffRegistryFile(path: path, storeIdentifier: Self.store)
        #expect(await other.records().isEmpty)
        #expect(other.setAside == 1)

        let legacy = try JSONEncoder().encode([record])
        FileManager.default.createFile(atPath: path, contents: legacy)
        let adopted = try CuffRegistryFile(path: path, storeIdentifier: Self.store)
        #expect(await adopted.records() == [record.address: record])
        #expect(adopted.setAside == 0)
    }

    @Test("A file that is not a registry is refused, not silently emptied")
    func corruptFile() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        FileManager.default.createFile(atPath: path, contents: Data("{not json".utf8))
        #expect(throws: (any Error).self) { try CuffRegistryFile(path: path, storeIdentifier: Self.store) }
    }
}

@Suite("Configuration for the Gateway")
struct ConfigurationGatewayTests {
    @Test("Adapter, clock sync, people, quirks and named cuffs reach the Gateway")
    func mapping() throws {
        let configuration = try Configuration(parsing: """
            [Bluetooth]
            Adapter=hci1
            [Clock]
            Sync=no
            [Cuff C4:F3:12:53:F2:C9]
            User0=alice
            NoUser=bob
            Quirk=none
            [Cuff A4:C1:38:5E:77:02]
            Quirk=beurerByteSwapped
            """, file: "cuffd.conf")
        let gateway = configuration.gatewayConfiguration
        let first = BluetoothAddress("C4:F3:12:53:F2:C9")!, second = BluetoothAddress("A4:C1:38:5E:77:02")!
        #expect(gateway.adapter == "hci1")
        #expect(gateway.clockSync == false)
        #expect(gateway.knownCuffs == [first, second])
        #expect(gateway.quirkOverrides[first] == .some(nil))
        #expect(gateway.quirkOverrides[second] == .some(.beurerByteSwapped))
        #expect(gateway.users.person(for: 0, on: DeviceIdentity(address: first)) == "alice")
        #expect(gateway.users.person(for: nil, on: DeviceIdentity(address: first)) == "bob")
    }
}
