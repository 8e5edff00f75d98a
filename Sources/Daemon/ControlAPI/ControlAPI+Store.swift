import DBus
import Foundation
import HealthStore
import ReadingQueries

/// Statistics (docs/reference/HEALTH-STORE.md §5).
extension ControlAPI {
    /// The types `Statistics` reads.
    static let statisticsTypes = Set(TypeGroups.byName["bloodPressure"]!.map(HealthObjectType.quantity))

    /// Minimum, maximum, average and most recent of each type over the filter, by type identifier.
    static func statistics(_ filter: ReadingFilter, in store: any HealthStoring, as client: HealthClient) throws -> [String: DBusVariant] {
        var result: [String: DBusVariant] = [:]
        // Readings excluded on request count nowhere (docs/dbus-api.md, "Correcting readings").
        var filter = filter
        filter.withoutExcluded = true
        for type in TypeGroups.byName["bloodPressure"]! {
            var predicate = filter.predicate
            // `heartRate` is the pulse of readings; heart-rate sensors have their own entry.
            predicate.onlyCorrelated = type == .heartRate
            result[type.identifier] = DBusVariant(try statistics(of: type, predicate, in: store, as: client))
        }
        // Heart-rate sensors' values, those sent without skin contact left out (docs/dbus-api.md, Statistics).
        var sensors = filter.predicate
        sensors.excludeCorrelated = true
        sensors.metadata[MetadataKey.heartRateSensorContact.name] = [.integer(0), .integer(2)]
        result[sensorHeartRateKey] = DBusVariant(try statistics(of: .heartRate, sensors, in: store, as: client))
        return result
    }

    /// The `Statistics` entry of heart-rate sensors' values.
    static let sensorHeartRateKey = "sensorHeartRate"

    private static func statistics(
        of type: QuantityType, _ predicate: SamplePredicate, in store: any HealthStoring, as client: HealthClient
    ) throws -> [String: DBusVariant] {
        let statistics = try storeCall { try store.statistics(of: type, predicate: predicate, options: .discrete, as: client) }
        var values: [String: DBusVariant] = ["count": DBusVariant(UInt32(statistics.all.sampleCount))]
        values["minimum"] = statistics.all.minimum.map { DBusVariant($0.value) }
        values["maximum"] = statistics.all.maximum.map { DBusVariant($0.value) }
        values["average"] = statistics.all.average.map { DBusVariant($0.value) }
        values["mostRecent"] = statistics.all.mostRecent.map { DBusVariant($0.value) }
        values["mostRecentTime"] = statistics.all.mostRecentDate.map { DBusVariant($0.timeIntervalSince1970) }
        return values
    }
}
