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
            scanMethod,
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
            captureMethod,
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
                return try await self.read(Self.readingTypes, for: caller) { [store = self.store] client in
                    [try query.readings(in: store, as: client).map(ReadingDictionary.make).dbusValue]
                }
            },
            .init("ReadingColumns", inputs: [filter], outputs: [.init("columns", .dictionary(key: .string, value: .variant))]) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let query = try ReadingFilter(call.argument(0), maximumLimit: ReadingColumns.maximumRows)
                return try await self.read(Self.readingTypes, for: caller) { [store = self.store] client in
                    [ReadingColumns.properties(try query.readings(in: store, as: client)).dbusValue]
                }
            },
            .init("HeartRates", inputs: [filter], outputs: [.init("samples", .array(.dictionary(key: .string, value: .variant)))]) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let query = try ReadingFilter(call.argument(0))
                return try await self.read([.quantity(.heartRate)], for: caller) { [store = self.store] client in
                    [try query.heartRates(in: store, as: client).map(HeartRateDictionary.make).dbusValue]
                }
            },
            .init("Changes", inputs: [.init("request", .dictionary(key: .string, value: .variant))], outputs: [.init("changes", .dictionary(key: .string, value: .variant))]) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let request = try ChangeRequest(call.argument(0))
                return try await self.read(Self.readingTypes, for: caller) { [store = self.store] client in
                    [try request.changes(in: store, as: client).dbusValue]
                }
            },
            .init("ChangeColumns", inputs: [.init("request", .dictionary(key: .string, value: .variant))], outputs: [.init("changes", .dictionary(key: .string, value: .variant))]) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let request = try ChangeRequest(call.argument(0), maximumLimit: ReadingColumns.maximumRows)
                return [try await self.feedPage(.readings, request, types: Self.readingTypes, for: caller, sender: call.sender) { request, store, client in
                    try request.changes(in: store, as: client, columns: true)
                }.dbusValue]
            },
            .init("HeartRateChangeColumns", inputs: [.init("request", .dictionary(key: .string, value: .variant))], outputs: [.init("changes", .dictionary(key: .string, value: .variant))]) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let request = try ChangeRequest(call.argument(0), maximumLimit: ReadingColumns.maximumRows)
                return [try await self.feedPage(.heartRates, request, types: [.quantity(.heartRate)], for: caller, sender: call.sender) { request, store, client in
                    try request.heartRateChanges(in: store, as: client)
                }.dbusValue]
            },
            .init("Statistics", inputs: [filter], outputs: [.init("statistics", .dictionary(key: .string, value: .variant))]) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let query = try ReadingFilter(call.argument(0))
                return try await self.read(Self.statisticsTypes, for: caller) { [store = self.store] client in
                    [try Self.statistics(query, in: store, as: client).dbusValue]
                }
            },
        ] + grantMethods() + recordMethods, properties: [
            .init("Version", version),
            .init("Status", "starting"),
            .init("RememberedCuffs", rememberedCuffs),
        ], signals: [
            .init("ReadingStored", [.init("cuff", .objectPath)]),
            .init("HeartRatesStored", [.init("cuff", .objectPath)]),
            .init("PasskeyRequested", [address]),
            .init("ReadingsChanged", []),
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

    /// Runs a store call, turning its errors into the API's.
    static func storeCall<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as HealthStoreError {
            throw ControlError.from(error)
        }
    }

    /// The types of `Readings`, `ReadingColumns`, `Changes` and `ChangeColumns`.
    static let readingTypes: Set<HealthObjectType> = [.correlation(.bloodPressure)]

    /// A read of the store of what `caller` may see of `types`, `body` given its store client, once ``ReadAdmission``
    /// lets it start (an administrator's at once) and on a reading thread (``StoreReaders``).
    func read<T: Sendable>(
        _ types: Set<HealthObjectType>, for caller: ConnectionCredentials, _ body: @escaping @Sendable (HealthClient) throws -> T
    ) async throws -> T {
        let client = policy.storeClient(for: caller)
        return try await admission.admit(caller.uid, paced: policy.role(of: caller) != .administrator) {
            try await readers.read(types, in: store, as: client) { try body(client) }
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
                let visible = try Self.storeCall { try filter.readings(in: store, as: policy.storeClient(for: caller)) }
                return visible.first.map(ReadingDictionary.make) ?? [:]
            case .failed(let address, let failure):
                throw ControlError.measurementFailed(try Self.storeCall { try FailedMeasurementReply.message(failure, from: address, in: store, for: policy.storeClient(for: caller)) })
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
        return duration(seconds)
    }

    /// `seconds` a caller gave, checked already, as a duration to the millisecond.
    static func duration(_ seconds: Double) -> Duration {
        .milliseconds(Int((seconds * 1000).rounded()))
    }
}
