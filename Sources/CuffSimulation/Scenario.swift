import BlueZ
import Foundation
import GATTHealth

/// A `cuff-sim` scenario: one adapter and the cuffs around it, each with a script of what it sends.
/// The file format is documented in docs/cuff-sim.md; the VM acceptance suite's emulated cuff reads the
/// same files, so one scenario runs on both stacks.
public struct Scenario: Decodable, Sendable, Equatable {
    public var adapter: AdapterSpec
    public var cuffs: [CuffSpec]
    /// What cuffd's store must hold after the scenario ran; test drivers of both stacks check it.
    public var expect: ScenarioExpectation?

    enum CodingKeys: String, CodingKey, CaseIterable { case adapter, cuffs, expect }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        adapter = try container.decode(AdapterSpec.self, forKey: .adapter)
        cuffs = try container.decode([CuffSpec].self, forKey: .cuffs)
        expect = try container.decodeIfPresent(ScenarioExpectation.self, forKey: .expect)
    }

    /// Parses and validates a scenario, or throws ``ScenarioError`` naming the offending field.
    public static func parse(_ data: Data) throws(ScenarioError) -> Scenario {
        let scenario: Scenario
        do {
            scenario = try JSONDecoder().decode(Scenario.self, from: data)
        } catch let error as DecodingError {
            throw ScenarioError(error, data: data)
        } catch {
            throw ScenarioError(path: "", message: "\(error)")
        }
        try scenario.validate()
        return scenario
    }

    private func validate() throws(ScenarioError) {
        var seen: Set<BluetoothAddress> = [adapter.address]
        for (index, cuff) in cuffs.enumerated() {
            guard seen.insert(cuff.address).inserted else {
                throw ScenarioError(path: "cuffs[\(index)].address", message: "\(cuff.address) is used twice")
            }
            try cuff.validate(path: "cuffs[\(index)]")
        }
        for (index, reading) in (expect?.readings ?? []).enumerated() where !cuffs.contains(where: { $0.address == reading.address }) {
            throw ScenarioError(path: "expect.readings[\(index)].address", message: "\(reading.address) is not one of the scenario's cuffs")
        }
    }
}

/// The emulated adapter (`/org/bluez/hci0`).
public struct AdapterSpec: Decodable, Sendable, Equatable {
    public var address: BluetoothAddress
    /// The adapter's `Name`/`Alias`; "cuff-sim" when absent.
    public var name: String
    /// Seconds a temporary (unpaired, untrusted) device stays after discovery stops or its link
    /// drops: bluetoothd's `[General] TemporaryTimeout`, 30 by default (docs/reference/BLUEZ-DBUS.md §2).
    public var temporaryTimeout: Double

    enum CodingKeys: String, CodingKey, CaseIterable { case address, name, temporaryTimeout }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        address = try container.decode(BluetoothAddress.self, forKey: .address)
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? "cuff-sim"
        temporaryTimeout = try container.decodeIfPresent(Double.self, forKey: .temporaryTimeout) ?? 30
        guard temporaryTimeout >= 0, temporaryTimeout.isFinite else {
            throw DecodingError.dataCorruptedError(forKey: .temporaryTimeout, in: container, debugDescription: "must be a time ≥ 0 in seconds")
        }
    }
}
