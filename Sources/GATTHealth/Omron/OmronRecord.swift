/// One blood-pressure record from an Omron cuff's memory (docs/omron.md §5), in mmHg and beats per minute,
/// with the cuff's wall-clock time.
public struct OmronRecord: Hashable, Sendable {
    public var systolic: UInt16
    public var diastolic: UInt8
    public var pulse: UInt8
    /// The cuff's clock when it measured; seconds above 59 are read as 59, as both public sources do.
    public var time: DateTime
    public var irregularHeartbeat: Bool
    public var bodyMovement: Bool
    /// The cuff was not wrapped well: its cuff-fit bit is clear (docs/omron.md §5; hass-omron reads the bit
    /// set as a good fit, and real records show it set).
    public var cuffTooLoose: Bool
    /// The cuff's batteries should be replaced: its battery bit is set (hass-omron `parser.py` reads it so,
    /// its `README.md`: "On when the device's batteries should be replaced"; docs/omron.md §5).
    public var lowBattery: Bool
    /// The two position bits as read, 0–3 (docs/omron.md §5): on the wrist models hass-omron's `parser.py`
    /// reads any value but 0 as "improper position"; elsewhere their meaning is not settled
    /// (``OmronModel/positionIsHeartLevel``).
    public var position: UInt8
    /// The wrist was not at heart level: a wrist model's position bits are not 0 (``init(decoding:model:)``).
    public var improperPosition = false

    public init(
        systolic: UInt16, diastolic: UInt8, pulse: UInt8, time: DateTime, irregularHeartbeat: Bool = false, bodyMovement: Bool = false,
        cuffTooLoose: Bool = false, lowBattery: Bool = false, position: UInt8 = 0
    ) {
        self.systolic = systolic
        self.diastolic = diastolic
        self.pulse = pulse
        self.time = time
        self.irregularHeartbeat = irregularHeartbeat
        self.bodyMovement = bodyMovement
        self.cuffTooLoose = cuffTooLoose
        self.lowBattery = lowBattery
        self.position = position
    }

    /// The year an Omron clock restarts at after a battery change (hass-omron `README.md`): a record in it
    /// has an unknown time (docs/omron.md §6).
    public static let clockResetYear: UInt16 = 2000

    /// Whether the record's time is a real one, not a clock restarted at 2000.
    public var isTimeKnown: Bool { time.year != Self.clockResetYear }

    /// Decodes one slot of `layout`. An all-`FF` slot is ``OmronError/erasedSlot``, a date that is not a
    /// real one ``OmronError/impossibleDate(_:)``; values are kept as read (the Gateway screens them).
    public init(decoding bytes: [UInt8], layout: OmronRecordLayout) throws(OmronError) {
        guard bytes.count >= layout.size else { throw .truncated(required: layout.size, actual: bytes.count) }
        let slot = Array(bytes.prefix(layout.size))
        guard slot.contains(where: { $0 != 0xFF }) else { throw .erasedSlot }
        self = layout.decode(slot)
        guard time.isRealCalendarTime else { throw .impossibleDate(time) }
    }

    /// Decodes one slot of `model`, reading its position bits as the heart-level check on wrist models only
    /// (docs/omron.md §5: hass-omron's `parser.py` flags any value but 0 as "improper position", its `README.md`
    /// says "wrist models", and its `omron_driver.py` reads the same bits as a TruRead series' 1–3 on others).
    public init(decoding bytes: [UInt8], model: OmronModel) throws(OmronError) {
        try self.init(decoding: bytes, layout: model.layout)
        improperPosition = model.isWrist && position != 0
    }

    /// The slot bytes of `layout` holding this record; bytes no field covers are 0.
    public func encoded(_ layout: OmronRecordLayout) -> [UInt8] {
        layout.encode(self)
    }
}

extension DateTime {
    /// A date that exists (day within its month, proleptic Gregorian) and a time within 00:00:00–23:59:59.
    var isRealCalendarTime: Bool {
        guard (1 ... 12).contains(month), day >= 1, hours <= 23, minutes <= 59, seconds <= 59 else { return false }
        let days = ProlepticGregorian.days(year: Int(year), month: Int(month), day: Int(day))
        let back = ProlepticGregorian.date(days: days)
        return back.month == Int(month) && back.day == Int(day)
    }
}
