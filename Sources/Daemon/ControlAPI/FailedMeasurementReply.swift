import BlueZ
import Gateway
import HealthStore

/// What `Start` answers when the cuff reports a failed measurement (docs/dbus-api.md, "Who may call"). The reason names
/// the values the cuff sent (`implausible: diastolic -204.8 mmHg outside 10–300 mmHg`; a diastolic above the systolic
/// carries both), so a caller gets it only when it may read the readings themselves; any other caller learns that the
/// measurement failed and nothing more, as it learns of a stored reading only that it was stored.
enum FailedMeasurementReply {
    /// The whole answer for a caller who may not read readings.
    static let withheld = "the cuff reported a failed measurement"

    /// The error text for `client`: with the cuff, the reason and what to do when it may read blood pressure
    /// (an administrator, or a reader granted `bloodPressure` read), else ``withheld``.
    static func message(_ failure: FailedMeasurement, from address: BluetoothAddress, in store: any HealthStoring, for client: HealthClient) throws(HealthStoreError) -> String {
        guard try mayRead(store, client) else { return withheld }
        return "the cuff \(address) reported a failed measurement (\(failure.reason)): measure again"
    }

    /// Whether `client` may read other sources' blood-pressure readings — cuffd's, which a failed measurement would have
    /// been: every type a reading is read by (HealthStore's grants, docs/reference/HEALTH-STORE.md §6), of everyone, since
    /// a failed measurement is of no person the store could tell.
    private static func mayRead(_ store: any HealthStoring, _ client: HealthClient) throws(HealthStoreError) -> Bool {
        if client.isDaemon { return true }
        let readable = Set(try store.grants(of: client.uid).filter { $0.canRead && $0.people == nil }.map(\.type))
        return HealthObjectType.correlation(.bloodPressure).authorizationTypes.allSatisfy(readable.contains)
    }
}
