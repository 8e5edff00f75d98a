import GATTHealth

/// Where a cuff session stands; the daemon publishes it and `cuffctl start` shows it.
///
/// discovered → connecting → resolving → subscribed → measuring (cuff pressure from 0x2A36) → subscribed
/// again once a reading is stored (ready for the next) … → disconnected.
public enum SessionState: Hashable, Sendable {
    /// Seen advertising, not connected.
    case discovered
    /// A Connect call is under way.
    case connecting
    /// Connected; waiting for ServicesResolved and checking the characteristics exist.
    case resolving
    /// Indications and notifications are enabled; waiting for the cuff to measure or send.
    case subscribed
    /// The cuff is measuring; the latest cuff pressure it reported.
    case measuring(cuffPressure: MedFloat16, unit: PressureUnit)
    /// The link is down.
    case disconnected
}
