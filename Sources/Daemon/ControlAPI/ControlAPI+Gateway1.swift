import BlueZ
import DBus
import Foundation
import Gateway
import HealthStore
import ReadingColumns
import ReadingQueries

/// The methods and properties of `org.cuffd.Gateway1` (docs/dbus-api.md).
extension ControlAPI {
    /// The interface, with `RememberedCuffs` as it is at export.
    func gatewayInterface(rememberedCuffs: DBusValue) -> DBusInterface {
        let address = DBusInterface.Argument("address", .string)
        let filter = DBusInterface.Argument("filter", .dictionary(key: .string, value: .variant))
        let reading = DBusInterface.Argument("reading", .dictionary(key: .string, value: .variant))
        return DBusInterface(Self.interfaceName, methods: [
            .init("Scan", inputs: [.init("seconds", .double)], outputs: [.init("cuffs", .array(.dictionary(key: .string, value: .variant)))]) { call in
                _ = try await self.policy.authorize(call, .reader)
                let seconds: Double = try call.argument(0)
                guard seconds > 0, seconds <= 120 else { throw ControlError.invalidArguments("scan for 0 to 120 s, not \(seconds)") }
                let seen = try await self.request { try await $0.scan(for: .milliseconds(Int(seconds * 1000))) }
                return [seen.map(\.scanEntry).dbusValue]
            },
            .init("Pair", inputs: [address, .init("passkey", .int32), .init("timeout", .double)], outputs: [.init("cuff", .objectPath)]) { call in
                _ = try await self.policy.authorize(call, .administrator)
                let target = try Self.address(call.argument(0))
                let passkey: Int32 = try call.argument(1)
                guard (-1...999_999).contains(passkey) else { throw ControlError.invalidArguments("a passkey is 0 to 999999, or -1 to be asked") }
                let timeout = try Self.timeout(call.argument(2))
                _ = try await self.request { try await $0.pair(target, passkey: passkey < 0 ? nil : UInt32(passkey), timeout: timeout) }
                return [.objectPath(Self.cuffPath(target))]
            },
            .init("ProvidePasskey", inputs: [address, .init("passkey", .uint32)]) { call in
                _ = try await self.policy.authorize(call, .administrator)
                let target = try Self.address(call.argument(0))
                let passkey: UInt32 = try call.argument(1)
                try await self.request { try await $0.providePasskey(passkey, for: target) }
                return []
            },
            .init("Forget", inputs: [address]) { call in
                _ = try await self.policy.authorize(call, .administrator)
                let target = try Self.address(call.argument(0))
                try await self.request { try await $0.forget(target) }
                return []
            },
            .init("Start", inputs: [address, .init("timeout", .double)], outputs: [reading]) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let text: String = try call.argument(0)
                let target = text.isEmpty ? nil : try Self.address(text)
                let timeout = try Self.timeout(call.argument(1))
                return [try await self.measure(target, timeout: timeout, for: caller).dbusValue]
            },
            .init("ResetEnergyExpended", inputs: [address]) { call in
                _ = try await self.policy.authorize(call, .reader)
                let target = try Self.address(call.argument(0))
                try await self.request { try await $0.resetEnergyExpended(target) }
                return []
            },
            .init("Stop", inputs: [address]) { call in
                _ = try await self.policy.authorize(call, .reader)
                let text: String = try call.argument(0)
                let target = text.isEmpty ? nil : try Self.address(text)
                try await self.request { try await $0.stopMeasurement(target) }
                return []
            },
            .init("Readings", inputs: [filter], outputs: [.init("readings", .array(.dictionary(key: .string, value: .variant)))]) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let query = try ReadingFilter(call.argument(0))
                let readings = try self.storeCall { try query.readings(in: self.store, as: self.policy.storeClient(for: caller)) }
                return [readings.map(ReadingDictionary.make).dbusValue]
            },
            .init("ReadingColumns", inputs: [filter], outputs: [.init("columns", .dictionary(key: .string, value: .variant))]) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let query = try ReadingFilter(call.argument(0), maximumLimit: ReadingColumns.maximumRows)
                let readings = try self.storeCall { try query.readings(in: self.store, as: self.policy.storeClient(for: caller)) }
                return [ReadingColumns.properties(readings).dbusValue]
            },
            .init("HeartRates", inputs: [filter], outputs: [.init("samples", .array(.dictionary(key: .string, value: .variant)))]) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let query = try ReadingFilter(call.argument(0))
                let samples = try self.storeCall { try query.heartRates(in: self.store, as: self.policy.storeClient(for: caller)) }
                return [samples.map(HeartRateDictionary.make).dbusValue]
            },
            .init("Changes", inputs: [.init("request", .dictionary(key: .string, value: .variant))], outputs: [.init("changes", .dictionary(key: .string, value: .variant))]) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let request = try ChangeRequest(call.argument(0))
                return [try self.storeCall { try request.changes(in: self.store, as: self.policy.storeClient(for: caller)) }.dbusValue]
            },
            .init("ChangeColumns", inputs: [.init("request", .dictionary(key: .string, value: .variant))], outputs: [.init("changes", .dictionary(key: .string, value: .variant))]) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let request = try ChangeRequest(call.argument(0), maximumLimit: ReadingColumns.maximumRows)
                return [try self.storeCall { try request.changes(in: self.store, as: self.policy.storeClient(for: caller), columns: true) }.dbusValue]
            },
            .init("Statistics", inputs: [filter], outputs: [.init("statistics", .dictionary(key: .string, value: .variant))]) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let query = try ReadingFilter(call.argument(0))
                return [try self.statistics(query, as: self.policy.storeClient(for: caller)).dbusValue]
            },
            .init("Grant", inputs: [.init("uid", .uint32), .init("type", .string), .init("access", .string)]) { call in
                let caller = try await self.policy.authorize(call, .administrator)
                try self.setGrants(uid: call.argument(0), type: call.argument(1), access: call.argument(2), by: caller)
                return []
            },
            .init("Revoke", inputs: [.init("uid", .uint32), .init("type", .string)]) { call in
                let caller = try await self.policy.authorize(call, .administrator)
                try self.setGrants(uid: call.argument(0), type: call.argument(1), access: "", by: caller)
                return []
            },
            .init("Permissions", inputs: [.init("uid", .uint32)], outputs: [.init("grants", .array(.structure([.string, .string])))]) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let uid: UInt32 = try call.argument(0)
                guard uid == caller.uid || self.policy.role(of: caller) == .administrator else {
                    throw ControlError.lacksRole(uid: caller.uid, needs: .administrator)
                }
                let grants = try self.storeCall { try self.store.grants(of: uid) }
                return [.array(.structure([.string, .string]), grants.map { grant in
                    .structure([.string(grant.type.identifier), .string(Self.access(grant))])
                })]
            },
        ], properties: [
            .init("Version", version),
            .init("Status", "starting"),
            .init("RememberedCuffs", rememberedCuffs),
        ], signals: [
            .init("ReadingStored", [.init("cuff", .objectPath)]),
            .init("HeartRatesStored", [.init("cuff", .objectPath)]),
            .init("PasskeyRequested", [address]),
        ])
    }

    /// Runs a Gateway request, turning its errors into the API's.
    func request<T: Sendable>(_ body: (CuffGateway) async throws -> T) async throws -> T {
        do {
            return try await body(gateway)
        } catch let error as GatewayError {
            throw ControlError.from(error)
        }
    }

    func storeCall<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as HealthStoreError {
            throw ControlError.from(error)
        }
    }

    /// Arms a measurement and waits for its end; the reading, or why the measurement failed, comes back as the caller may
    /// read it.
    private func measure(_ target: BluetoothAddress?, timeout: Duration, for caller: ConnectionCredentials) async throws -> [String: DBusVariant] {
        let updates = try await request { try await $0.startMeasurement(target, timeout: timeout) }
        for await update in updates {
            switch update {
            case .state:
                continue
            case .reading(_, let reading):
                var filter = try ReadingFilter([:])
                filter.syncIdentifier = reading.syncIdentifier
                // A caller who may not read it learns that a reading was stored, and nothing of it: its sync
                // identifier embeds the cuff's serial and the reading's bytes (docs/dbus-api.md).
                let visible = try storeCall { try filter.readings(in: store, as: policy.storeClient(for: caller)) }
                return visible.first.map(ReadingDictionary.make) ?? [:]
            case .failed(let address, let failure):
                throw ControlError.measurementFailed(try storeCall { try FailedMeasurementReply.message(failure, from: address, in: store, for: policy.storeClient(for: caller)) })
            case .timedOut:
                throw ControlError.timedOut("no new reading within \(timeout)")
            case .stopped:
                throw ControlError.stopped
            }
        }
        throw ControlError.stopped
    }

    static func address(_ text: String) throws -> BluetoothAddress {
        guard let address = BluetoothAddress(text) else { throw ControlError.invalidArguments("\"\(text)\" is not an address like C4:F3:12:53:F2:C9") }
        return address
    }

    static func timeout(_ seconds: Double) throws -> Duration {
        guard seconds > 0, seconds <= 3600 else { throw ControlError.invalidArguments("a timeout is 0 to 3600 s, not \(seconds)") }
        return .milliseconds(Int(seconds * 1000))
    }
}
