import DurableFiles

/// Which of cuffd's change feeds a forwarder follows (docs/dbus-api.md, "Change feed" and "Heart-rate change feed"):
/// blood-pressure readings, or heart-rate sensors' samples. Each has its own anchor file, beside the other, so that
/// one feed's backlog or failure never moves or holds the other's anchor.
enum FeedKind: Sendable, Hashable, CaseIterable {
    case readings
    case heartRates

    /// The method of `org.cuffd.Gateway1` that answers a page of it.
    var method: String {
        switch self {
        case .readings: "ChangeColumns"
        case .heartRates: "HeartRateChangeColumns"
        }
    }

    /// The signal cuffd sends when the feed has something new.
    var signal: String {
        switch self {
        case .readings: "ReadingStored"
        case .heartRates: "HeartRatesStored"
        }
    }

    /// How the log names what the feed carries.
    var noun: String {
        switch self {
        case .readings: "readings"
        case .heartRates: "heart-rate samples"
        }
    }

    /// Its anchor file, given the readings' (`State=`, `[MQTT] State=`): the heart-rate feed's is `heart-rate-anchor`
    /// beside it.
    func anchorPath(besideReadings path: String) -> String {
        switch self {
        case .readings: path
        case .heartRates: parentFolder(of: path) + "/heart-rate-anchor"
        }
    }
}
