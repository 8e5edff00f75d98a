/// A metadata key with the one value kind it accepts and, for enumerations, its allowed range.
///
/// The registry of standard keys follows docs/reference/HEALTH-STORE.md §2 (HealthKit `HKMetadata.h`, Health
/// Connect `Metadata.kt` / `BloodPressureRecord.kt`, BPS, PHD IG coincident time stamp).
public struct MetadataKey: Sendable, Hashable, CustomStringConvertible {
    /// Key name as stored (HealthKit spelling without the `HKMetadataKey` prefix).
    public let name: String
    /// The only value kind accepted.
    public let kind: MetadataValueKind
    /// For integer keys: allowed values.
    public let allowedRange: ClosedRange<Int64>?

    /// A key; register custom keys through ``StoreConfiguration/metadataKeys``.
    public init(_ name: String, kind: MetadataValueKind, allowedRange: ClosedRange<Int64>? = nil) {
        self.name = name
        self.kind = kind
        self.allowedRange = allowedRange
    }

    /// `HKMetadataKeyWasUserEntered`.
    public static let wasUserEntered = MetadataKey("WasUserEntered", kind: .bool)
    /// Health Connect recording method: 0 unknown, 1 actively recorded, 2 automatically, 3 manual.
    public static let recordingMethod = MetadataKey("RecordingMethod", kind: .integer, allowedRange: 0...3)
    /// `HKHeartRateSensorLocation` (= BLE 0x2A38 values) 0…6.
    public static let heartRateSensorLocation = MetadataKey("HeartRateSensorLocation", kind: .integer, allowedRange: 0...6)
    /// `HKHeartRateMotionContext` 0…2.
    public static let heartRateMotionContext = MetadataKey("HeartRateMotionContext", kind: .integer, allowedRange: 0...2)
    /// `HKMetadataKeyExternalUUID` (not unique-enforced).
    public static let externalUUID = MetadataKey("ExternalUUID", kind: .string)
    /// `HKMetadataKeySyncIdentifier`; requires ``syncVersion``.
    public static let syncIdentifier = MetadataKey("SyncIdentifier", kind: .string)
    /// `HKMetadataKeySyncVersion` (≥ 0; Health Connect versions start at 0); requires ``syncIdentifier``.
    public static let syncVersion = MetadataKey("SyncVersion", kind: .integer, allowedRange: 0...Int64.max)
    /// `HKMetadataKeyTimeZone`: IANA zone name.
    public static let timeZone = MetadataKey("TimeZone", kind: .string)
    /// Health Connect body position 0…4 (see ``BodyPosition``).
    public static let bodyPosition = MetadataKey("BodyPosition", kind: .integer, allowedRange: 0...4)
    /// Health Connect measurement location 0…4 (see ``MeasurementLocation``).
    public static let measurementLocation = MetadataKey("MeasurementLocation", kind: .integer, allowedRange: 0...4)
    /// Raw BLE 0x2A35 measurement status bits (16-bit field).
    public static let measurementStatus = MetadataKey("MeasurementStatus", kind: .integer, allowedRange: 0...0xFFFF)
    /// BPS User ID 0–254; 255 = unknown user.
    public static let deviceUserID = MetadataKey("DeviceUserId", kind: .integer, allowedRange: 0...255)
    /// The person the cuff's user ID is mapped to (cuffd addition).
    public static let personIdentifier = MetadataKey("PersonIdentifier", kind: .string)
    /// Device clock reading (PHD IG coincident time stamp).
    public static let deviceTimestamp = MetadataKey("DeviceTimestamp", kind: .date)
    /// Offset device clock → gateway clock in milliseconds (PHD IG coincident time stamp).
    public static let coincidentTimeOffsetMs = MetadataKey("CoincidentTimeOffsetMs", kind: .integer)
    /// `HKMetadataKeyDigitalSignature`: base64 CMS.
    public static let digitalSignature = MetadataKey("DigitalSignature", kind: .string)
    /// Original unit + SFLOAT mantissa/exponent of the device value (cuffd addition).
    public static let deviceValue = MetadataKey("DeviceValue", kind: .string)
    /// Heart Rate Measurement sensor contact (0x2A37 flag bits 1–2): 0 the sensor cannot tell, 1 no skin
    /// contact, 2 in contact (cuffd addition; HealthKit has no such key).
    public static let heartRateSensorContact = MetadataKey("HeartRateSensorContact", kind: .integer, allowedRange: 0...2)
    /// Heart Rate Measurement Energy Expended: kilojoules since the sensor's last reset (cuffd addition).
    public static let energyExpended = MetadataKey("EnergyExpended", kind: .integer, allowedRange: 0...0xFFFF)
    /// The RR intervals of one Heart Rate Measurement, oldest first, in 1/1024 s, comma-separated: a short
    /// heartbeat series riding on its sample (cuffd addition; docs/health-store.md).
    public static let rrIntervals = MetadataKey("RRIntervals", kind: .string)

    /// What a person wrote about a reading, at most ``noteLimit`` bytes of UTF-8 without control characters (cuffd
    /// addition; docs/health-store.md, "Entered by hand").
    public static let note = MetadataKey("Note", kind: .string)
    /// Why a reading is kept out of statistics and averages; present only on an excluded reading (cuffd addition).
    public static let exclusionReason = MetadataKey("ExclusionReason", kind: .string)

    /// All standard keys.
    public static let standard: [MetadataKey] = [
        .wasUserEntered, .recordingMethod, .heartRateSensorLocation, .heartRateMotionContext, .externalUUID,
        .syncIdentifier, .syncVersion, .timeZone, .bodyPosition, .measurementLocation, .measurementStatus,
        .deviceUserID, .personIdentifier, .deviceTimestamp, .coincidentTimeOffsetMs, .digitalSignature, .deviceValue,
        .heartRateSensorContact, .energyExpended, .rrIntervals, .note, .exclusionReason,
    ]

    /// The longest ``note`` or ``exclusionReason``, in bytes of UTF-8.
    public static let noteLimit = 1_000

    public var description: String { name }
}
