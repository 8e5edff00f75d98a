import DBus
import Foundation
import HealthStore
import ReadingQueries

/// Correcting the record (docs/dbus-api.md, "Correcting readings"): deleting readings on request, entering them by hand,
/// annotating them (a new revision). Administrators may
/// change every reading; a uid allowed to share blood pressure those it may read (HealthStore's grants); everyone
/// else nothing. Each change is one journal entry (``EditLog``) and a record of the store's edit history, which
/// `History` reads, and wakes the change feed's followers with `ReadingsChanged`.
extension ControlAPI {
    /// The most sync identifiers one `DeleteReadings` or `AnnotateReadings` takes.
    static let maximumDeletions = 10_000

    var recordMethods: [DBusInterface.Method] {
        [
            .init("DeleteReadings", inputs: [.init("syncIdentifiers", .array(.string))], outputs: [.init("deleted", .uint32)]) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let identifiers: [String] = try call.argument(0)
                try Self.checkSyncIdentifiers(identifiers)
                let client = self.policy.storeClient(for: caller)
                _ = try Self.storeCall {
                    try self.store.deleteCorrelations(of: .bloodPressure, syncIdentifiers: identifiers, as: client)
                }
                EditLog.edited(.deleted, by: caller.uid, Array(Set(identifiers)).sorted(), changedKeys: [], to: self.signals.logger)
                self.signals.readingsChanged()
                return [.uint32(UInt32(Set(identifiers).count))]
            },
            .init("AddReading", inputs: [.init("reading", .dictionary(key: .string, value: .variant))], outputs: [.init("syncIdentifier", .string)]) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let entry = try HandEntry(call.argument(0), people: self.people, now: Date())
                let client = self.policy.storeClient(for: caller)
                let saved = try Self.storeCall { try self.store.saveEnteredByHand(entry.reading, as: client) }
                EditLog.edited(
                    .entered, by: caller.uid, [entry.reading.syncIdentifier], changedKeys: EditRecord.enteredKeys(saved.object.metadata),
                    to: self.signals.logger)
                self.signals.readingsChanged()
                return [.string(entry.reading.syncIdentifier)]
            },
            .init(
                "AnnotateReading", inputs: [.init("syncIdentifier", .string), .init("changes", .dictionary(key: .string, value: .variant))],
                outputs: [.init("syncVersion", .int64)]
            ) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let identifier: String = try call.argument(0)
                try Self.checkSyncIdentifiers([identifier])
                let annotation = try Annotation(call.argument(1), people: self.people)
                let client = self.policy.storeClient(for: caller)
                let revised = try Self.storeCall {
                    try self.store.reviseCorrelation(of: .bloodPressure, syncIdentifier: identifier, changes: annotation.changes, as: client)
                }
                let version = revised.metadata.syncVersion ?? 0
                EditLog.edited(.annotated, by: caller.uid, [identifier], changedKeys: annotation.changes.keys.map(\.name), to: self.signals.logger)
                self.signals.readingsChanged()
                return [.int64(version)]
            },
            .init(
                "AnnotateReadings", inputs: [.init("syncIdentifiers", .array(.string)), .init("changes", .dictionary(key: .string, value: .variant))],
                outputs: [.init("annotated", .uint32)]
            ) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let identifiers: [String] = try call.argument(0)
                try Self.checkSyncIdentifiers(identifiers)
                let annotation = try Annotation(call.argument(1), people: self.people)
                let client = self.policy.storeClient(for: caller)
                let revised = try Self.storeCall {
                    try self.store.reviseCorrelations(of: .bloodPressure, syncIdentifiers: identifiers, changes: annotation.changes, as: client)
                }
                EditLog.edited(
                    .annotated, by: caller.uid, revised.compactMap(\.metadata.syncIdentifier), changedKeys: annotation.changes.keys.map(\.name),
                    to: self.signals.logger)
                self.signals.readingsChanged()
                return [.uint32(UInt32(revised.count))]
            },
            .init("History", inputs: [.init("syncIdentifier", .string)], outputs: [.init("changes", .array(.dictionary(key: .string, value: .variant)))]) { call in
                let caller = try await self.policy.authorize(call, .reader)
                let identifier: String = try call.argument(0)
                try Self.checkSyncIdentifiers([identifier])
                let client = self.policy.storeClient(for: caller)
                let records = try Self.storeCall { try self.store.editHistory(of: .bloodPressure, syncIdentifier: identifier, as: client) }
                return [records.map { record -> DBusProperties in
                    [
                        "time": DBusVariant(record.date.timeIntervalSince1970), "uid": DBusVariant(record.uid),
                        "action": DBusVariant(record.action.rawValue), "changed": DBusVariant(record.changedKeys),
                    ]
                }.dbusValue]
            },
        ]
    }

    /// A list of sync identifiers a request may name: 1 to ``maximumDeletions``, none empty.
    static func checkSyncIdentifiers(_ identifiers: [String]) throws {
        guard !identifiers.isEmpty else { throw ControlError.invalidArguments("name at least one reading by its sync identifier") }
        guard identifiers.count <= maximumDeletions else {
            throw ControlError.invalidArguments("at most \(maximumDeletions) readings at once, not \(identifiers.count)")
        }
        guard !identifiers.contains("") else { throw ControlError.invalidArguments("a sync identifier is not empty") }
    }
}
