import DBus

/// A reading as cuffd's `Changes` sends it (docs/dbus-api.md, "Change feed": the keys of `cuffctl readings
/// --json`), with what the central table keeps of it.
struct ForwardedReading: Sendable, Equatable {
    var syncIdentifier: String
    var syncVersion: Int64
    var systolic: Double
    var diastolic: Double
    var meanArterialPressure: Double?
    var pulseRate: Double?
    var unit: String
    /// Unix seconds of the measurement.
    var time: Double
    /// The cuff's own clock, `YYYY-MM-DDTHH:MM:SS`.
    var deviceTime: String?
    var userID: UInt8?
    var person: String?
    var status: UInt16?
    /// `address`, `name`, `manufacturer`, `model`, `serial`, `firmware`.
    var device: [String: String]

    init(_ fields: DBusProperties) throws {
        guard let syncIdentifier = try fields.property("syncIdentifier", as: String.self),
              let syncVersion = try fields.property("syncVersion", as: Int64.self),
              let systolic = try fields.property("systolic", as: Double.self),
              let diastolic = try fields.property("diastolic", as: Double.self),
              let unit = try fields.property("unit", as: String.self),
              let time = try fields.property("time", as: Double.self)
        else { throw FeedError.malformed("a reading without its identifier, version, pressures, unit or time") }
        self.syncIdentifier = syncIdentifier
        self.syncVersion = syncVersion
        self.systolic = systolic
        self.diastolic = diastolic
        self.unit = unit
        self.time = time
        meanArterialPressure = try fields.property("meanArterialPressure", as: Double.self)
        pulseRate = try fields.property("pulseRate", as: Double.self)
        deviceTime = try fields.property("deviceTime", as: String.self)
        userID = try fields.property("userID", as: UInt8.self)
        person = try fields.property("person", as: String.self)
        status = try fields.property("status", as: UInt16.self)
        device = try fields.property("device", as: [String: String].self) ?? [:]
    }
}
