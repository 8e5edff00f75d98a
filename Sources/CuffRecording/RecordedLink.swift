/// One link of a recorded cuff: how long after the previous link ended it came up (nil for the first), and what
/// happened on it, in order (docs/cuff-sim.md, "Recorded cuffs").
public struct RecordedLink: Sendable, Equatable {
    /// Seconds from the end of the previous link to the start of this one; nil for the first link.
    public var after: Double?
    public var steps: [RecordedStep]

    public init(after: Double? = nil, steps: [RecordedStep]) {
        self.after = after
        self.steps = steps
    }

    public enum Key: String, CodingKey, CaseIterable { case after, steps }
}

/// Something that happened on a link, `after` seconds from the moment it came up.
public struct RecordedStep: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// The cuff sent a notification (`indication` false) or an indication of characteristic `uuid`.
        case value(uuid: String, bytes: [UInt8], indication: Bool)
        /// A read of `uuid` returned `bytes` (bluetoothd also announces a read as a change of `Value`).
        case read(uuid: String, bytes: [UInt8])
        /// The host wrote `bytes` to `uuid`, as a Write Request or (`command`) a Write Command; `refusal` is the error
        /// bluetoothd answered (name and text) when the cuff or bluetoothd refused it.
        case write(uuid: String, bytes: [UInt8], command: Bool, refusal: String?)
        /// The host's notify session on `uuid` started (its `StartNotify` succeeded): what follows was sent to it.
        case subscribe(uuid: String)
        /// The link went down.
        case disconnect
    }

    public var after: Double
    public var action: Action

    public init(after: Double, _ action: Action) {
        self.after = after
        self.action = action
    }

    /// The keys of a step; `notify`, `indicate`, `read`, `write`, `subscribe` and `disconnect` name its action.
    public enum Key: String, CodingKey, CaseIterable { case after, notify, indicate, read, write, subscribe, hex, type, refused, disconnect }

    /// The characteristic the step names; nil for a disconnect.
    public var uuid: String? {
        switch action {
        case let .value(uuid, _, _), let .read(uuid, _), let .write(uuid, _, _, _), let .subscribe(uuid): uuid
        case .disconnect: nil
        }
    }
}
