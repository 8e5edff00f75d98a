/// Joins the pieces a cuff notifies on its receive channels into one packet (docs/omron.md §3; omblepy
/// `omblepy.py` `_callbackForRxChannels`, hass-omron `omron_driver.py` `_on_notify_channel_data`): once channel 0
/// has given the length, the packet is whole when every channel that length needs has delivered. On the 0xFE4A
/// service there is one channel, whose piece is the whole packet.
public struct OmronPacketAssembler: Sendable {
    private var pieces: [[UInt8]?]

    /// An assembler for `stack`'s receive channels (the emulated cuff: for its transmit channels, as many).
    public init(_ stack: OmronStack = .classic) {
        pieces = Array(repeating: nil, count: stack.receiveChannels.count)
    }

    /// Takes the piece of `channel`; returns the packet once whole (or its decoding error), nil while
    /// pieces are missing. A whole packet, good or bad, clears what was collected.
    public mutating func append(_ piece: [UInt8], channel: Int) -> Result<OmronPacket, OmronError>? {
        guard pieces.indices.contains(channel) else { return nil }
        pieces[channel] = piece
        guard let first = pieces[0], let length = first.first else { return nil }
        let needed = min((Int(length) + OmronService.pieceSize - 1) / OmronService.pieceSize, pieces.count)
        var joined: [UInt8] = []
        for index in 0 ..< max(needed, 1) {
            guard let piece = pieces[index] else { return nil }
            joined += piece
        }
        reset()
        do {
            return .success(try OmronPacket(decoding: joined))
        } catch {
            return .failure(error)
        }
    }

    /// Forgets pieces collected so far (a new request).
    public mutating func reset() {
        pieces = Array(repeating: nil, count: pieces.count)
    }
}
