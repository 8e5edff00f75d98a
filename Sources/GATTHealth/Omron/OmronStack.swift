/// Which of Omron's two services a model speaks, and how a host gets at its memory there (docs/omron.md §1–§3;
/// hass-omron `devices.py` `UnlockMode`, `HostPairingMode`, `device_catalog.py`).
public enum OmronStack: Hashable, Sendable {
    /// The ecbe3980 service: packets in 16-byte pieces on four channels each way, and the pairing key the host
    /// programs while the cuff shows "P" (docs/omron.md §2; hass-omron `UnlockMode.CLASSIC_KEY`).
    case classic
    /// The 0xFE4A service: one channel each way carrying whole packets, a plain Bluetooth bond
    /// (`HostPairingMode.OS_BONDING`); with `tokenUnlock` the 0x11/0x91 token unlock on every connection
    /// (`UnlockMode.TOKEN_KEY`), without it none (`UnlockMode.NONE`).
    case modern(tokenUnlock: Bool)

    /// The service the cuff offers.
    public var serviceUUID: String {
        switch self {
        case .classic: OmronService.uuid
        case .modern: OmronModernService.uuid
        }
    }

    /// The transmit channels, channel *k* at index *k*.
    public var transmitChannels: [String] {
        switch self {
        case .classic: OmronService.transmitChannels
        case .modern: [OmronModernService.transmitChannel]
        }
    }

    /// The receive channels, channel *k* at index *k*.
    public var receiveChannels: [String] {
        switch self {
        case .classic: OmronService.receiveChannels
        case .modern: [OmronModernService.receiveChannel]
        }
    }

    /// The most bytes of a packet one channel carries: 16 on the classic service, the whole packet on 0xFE4A.
    public var pieceSize: Int {
        switch self {
        case .classic: OmronService.pieceSize
        case .modern: OmronPacket.maximumLength
        }
    }

    /// Whether the host writes to the unlock characteristic on every connection before the memory answers.
    public var needsUnlock: Bool { self != .modern(tokenUnlock: false) }

    /// Both services: a device offering either is an Omron cuff.
    public static let serviceUUIDs = [OmronService.uuid, OmronModernService.uuid]

    /// Whether a device whose `UUIDs` are `uuids` offers one of Omron's services.
    public static func isOffered(in uuids: [String]) -> Bool {
        uuids.contains { serviceUUIDs.contains($0) }
    }
}
