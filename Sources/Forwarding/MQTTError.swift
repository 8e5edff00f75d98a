/// What an MQTT session can run into, in words for the log and `cuffctl forward status`.
enum MQTTError: Error, CustomStringConvertible {
    /// The broker could not be reached: no TCP connection, or TLS refused (`detail` carries OpenSSL's reason, such as
    /// `certificate verify failed`).
    case unreachable(String)
    /// The broker answered CONNECT with a refusal (MQTT 5 §3.2.2.2 reason codes, MQTT 3.1.1 §3.2.2.3 return codes),
    /// such as `Bad user name or password`.
    case refused(code: Int32, reason: String)
    /// The broker closed the connection after CONNECT without answering it — no CONNACK, no TLS failure — when offered
    /// each of `protocols` in turn: what RabbitMQ 3.10 does with an MQTT 5 CONNECT (docs/reference/MQTT.md §2).
    case closedBeforeCONNACK(protocols: [String])
    /// The session ended while messages waited for their PUBACK (MQTT 5 §3.14 DISCONNECT, or the keep-alive timed out,
    /// §3.1.2.10).
    case lost(String)
    /// The broker answered a PUBLISH with a failure reason code (MQTT 5 §3.4.2.1), such as `Not authorized`.
    case publishRefused(String)

    var description: String {
        switch self {
        case .unreachable(let detail): "cannot connect: \(detail)"
        case .refused(_, let reason): "the broker refused the connection: \(reason)"
        case .closedBeforeCONNACK(let protocols):
            "the broker closed the connection before answering CONNECT, with \(protocols.joined(separator: " and with "))"
        case .lost(let detail): "the connection was lost: \(detail)"
        case .publishRefused(let reason): "the broker refused a message: \(reason)"
        }
    }
}

extension MQTTError {
    /// Whether an MQTT 5 CONNECT that ended so is offered again as MQTT 3.1.1 (docs/reference/MQTT.md §1): the broker
    /// answered that it does not speak 5 — reason 0x84 (MQTT 5 §3.2.2.2), or a 3.1.1 broker's return code 1 (MQTT
    /// 3.1.1 §3.1.2.2, §3.2.2.3) — or closed the connection without answering, as RabbitMQ 3.10 does (§2). Nothing that
    /// fails before CONNECT is sent (TCP, DNS) or that TLS refuses: 3.1.1 would fail the same way.
    var asksForMQTT311: Bool {
        switch self {
        case .refused(let code, _): code == 0x84 || code == 1
        case .closedBeforeCONNACK: true
        case .unreachable, .lost, .publishRefused: false
        }
    }

    /// What is reported when MQTT 3.1.1, offered after this, failed with `again`: two closures without an answer in one
    /// (`… with MQTT 5 and with MQTT 3.1.1`), else the later failure, which says more.
    func followed(by again: MQTTError) -> MQTTError {
        guard case .closedBeforeCONNACK(let before) = self, case .closedBeforeCONNACK(let after) = again else { return again }
        return .closedBeforeCONNACK(protocols: before + after)
    }
}
