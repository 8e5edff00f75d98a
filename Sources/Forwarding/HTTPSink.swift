import ForwardingStatus
import FoundationEssentials

/// An HTTP receiver as a ``Sink`` (docs/forwarding.md, "The HTTP sink"): each page POSTed whole — JSON lines
/// (``JSONLines``) or InfluxDB line protocol (``InfluxLine``) —, signed with `X-Cuffd-Signature` (``HMACSignature``)
/// when a key is configured, and acknowledged by a 2xx answer. At least once: a page sent again carries the same sync
/// identifiers and versions, which a receiver upserts by, and the same points, which InfluxDB overwrites.
///
/// An answer of 400 or 422 says the receiver refuses this data, which sending it again would not change:
/// ``SinkRefused``, and the forwarder stops this sink. Any other answer, no answer, or the timeout is retried with
/// backoff from the same anchor.
final class HTTPSink: Sink {
    let name: String
    let waitingState = ForwardStatus.State.waitingForReceiver
    private let settings: HTTPSettings
    private let gateway: String
    private let log: ForwardLog
    private var client: HTTPClient?

    init(settings: HTTPSettings, gateway: String, log: ForwardLog) {
        self.settings = settings
        self.gateway = gateway
        self.log = log
        name = settings.format == .influx ? "InfluxDB" : "the HTTP receiver"
    }

    /// Loads libcurl on first use, and says whom it posts to, as the other sinks say they connected. There is no session
    /// to open again after a failure (libcurl reconnects by itself): the first page accepted after one says the receiver
    /// is back.
    func ready() async throws -> String? {
        guard client == nil else { return nil }
        client = try HTTPClient()
        return "\(name) \(settings.url) (\(settings.format.rawValue))"
    }

    func deliver(_ page: ChangePage) async throws -> Int {
        guard let client else { throw SinkUnreachable(underlying: HTTPError.failed("not ready")) }
        let body = settings.format == .influx
            ? InfluxLine.body(page, gateway: gateway, now: Date().timeIntervalSince1970) : JSONLines.body(page, gateway: gateway)
        var headers = ["Content-Type: " + (settings.format == .influx ? "text/plain; charset=utf-8" : "application/x-ndjson")]
        if let keyFile = settings.hmacKeyFile {
            // Read at each page: a rotated key is used from the next one on.
            headers.append("\(HMACSignature.header): \(HMACSignature.value(of: body, key: Array(try keyFile.read().utf8)))")
        }
        switch await client.post(url: settings.url, headers: headers, body: body, timeoutSeconds: settings.timeout, caFile: settings.caFile) {
        case .answered(let status, _) where (200..<300).contains(status):
            log.state(name, "up", .info, "\(name) accepts pages again")
            return 0
        case .answered(let status, let firstLine) where status == 400 || status == 422:
            throw SinkRefused(
                description: "\(name) refused a page of \(page.count) \(page.kind.noun) and \(page.deleted.count) deletions with HTTP \(status): \(firstLine.prefix(200))")
        case .answered(let status, let firstLine):
            throw SinkUnreachable(underlying: HTTPError.status(status, firstLine))
        case .failed(let message, let timedOut):
            throw SinkUnreachable(underlying: timedOut ? HTTPError.timedOut(settings.timeout, message) : HTTPError.failed(message))
        }
    }
}

/// Why a POST was not acknowledged, in words for the log and the status.
enum HTTPError: Error, CustomStringConvertible {
    case status(Int, String)
    case timedOut(Int, String)
    case failed(String)

    var description: String {
        switch self {
        case .status(let status, let firstLine): "HTTP \(status): \(firstLine.prefix(200))"
        case .timedOut(let seconds, let message): "no answer within Timeout=\(seconds) s (\(message))"
        case .failed(let message): message
        }
    }
}

/// The far side refuses the data itself (HTTP 400 or 422): sending it again would be refused again, and skipping it
/// would lose it, so the forwarder stops this sink, keeps its anchor, and says so (docs/forwarding.md, "The HTTP sink").
struct SinkRefused: Error, CustomStringConvertible {
    let description: String
}
