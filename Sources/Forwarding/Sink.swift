import ForwardingStatus

/// A destination of cuffd's change feed, driven by a ``Forwarder`` of its own (docs/forwarding.md, "Sinks"): the
/// central PostgreSQL (``PostgresSink``) or an MQTT broker (``MQTTSink``). The forwarder owns the feed, the anchor
/// file, the retries and the status; a sink only delivers pages and says when they are acknowledged.
protocol Sink: AnyObject {
    /// How the log and the status name the far side: `PostgreSQL`, `the MQTT broker`.
    var name: String { get }
    /// The status while the far side cannot be reached.
    var waitingState: ForwardStatus.State { get }
    /// Makes the sink ready to deliver: connects unless connected — returning what to log, such as
    /// `PostgreSQL (TLS)`, when it did — and catches up with what the far side asked for meanwhile.
    func ready() async throws -> String?
    /// Hands `page` over, and returns only once the far side has acknowledged all of it: the anchor moves after. Returns
    /// how many of the page's readings the far side already held from another gateway and kept as that one sent them
    /// (docs/forwarding.md, "A cuff on two gateways").
    func deliver(_ page: ChangePage) async throws -> Int
    /// A backlog of more than one page has been delivered, and the forwarder is about to sleep: the sink gives back
    /// what it grew for the backlog, before the freed memory is handed to the system (``FreedMemory``).
    func backlogDelivered() async throws
}

extension Sink {
    /// Nothing to give back: libmosquitto keeps no buffer the size of a page.
    func backlogDelivered() async throws {}
}

/// The far side cannot be reached, refused the login, or went away mid-page: the sink has dropped its connection,
/// and the forwarder tries again with backoff from the same anchor, so nothing is lost.
struct SinkUnreachable: Error, CustomStringConvertible {
    let underlying: any Error
    var description: String { "\(underlying)" }
}
