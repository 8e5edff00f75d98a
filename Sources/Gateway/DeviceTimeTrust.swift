import FoundationEssentials

/// When a cuff's time stamp is believed (docs/gateway.md, "Time"): the instant it names — its wall-clock time with the
/// reading's clock offset — may lie in the past by any amount, but ahead of the gateway's clock by at most
/// ``maximumLead``. A time further ahead is kept as the cuff reported it, and the reading is filed under the time cuffd
/// received it, as a reading with an unknown time is.
public enum DeviceTimeTrust {
    /// How far ahead of the gateway's clock the instant a cuff's time stamp names may lie and still be believed: a day.
    ///
    /// - A clock that is only *off* stays well inside it: a cuff set by hand drifts minutes a month, misses a
    ///   daylight-saving change by an hour, or shows the time of a zone some hours east of the gateway's (set while
    ///   travelling); a measured clock offset (Current Time, an Omron clock block) removes even that.
    /// - A clock that is *wrong* lies far beyond it: a year set wrongly, a record of a corrupted memory (2099). Believed,
    ///   such a reading is the newest until that day: `cuffctl stats`' latest and Home Assistant's state would show it,
    ///   and every real reading would go to history.
    /// - A wrong time believed because it is less than a day ahead costs at most that day: the next real reading is
    ///   newer.
    ///
    /// The gateway's clock is the reference, as it is when cuffd sets a cuff's clock (`cuffctl doctor` checks that it is
    /// synchronized).
    public static let maximumLead: Duration = .seconds(24 * 60 * 60)
}

extension Reading {
    /// How far the instant the cuff's time stamp names — ``deviceTime`` read as UTC, plus ``clockOffset`` — lies ahead of
    /// ``receivedAt`` (negative: before it); nil when the cuff sent no known time.
    public var deviceTimeLead: Duration? {
        guard let stamp = deviceTime?.dateReadAsUTC else { return nil }
        let instant = stamp.addingTimeInterval((clockOffset ?? .zero) / .seconds(1))
        return .milliseconds(Int64((instant.timeIntervalSince(receivedAt) * 1000).rounded()))
    }

    /// Whether the reading is filed under the time its cuff reported: false when that time lies more than
    /// ``DeviceTimeTrust/maximumLead`` ahead of when cuffd received it (then ``receivedAt`` is its time, and
    /// ``deviceTime`` keeps what the cuff reported); true when it does not, or the cuff sent no time.
    public var isDeviceTimeBelieved: Bool {
        deviceTimeLead.map { $0 <= DeviceTimeTrust.maximumLead } ?? true
    }
}
