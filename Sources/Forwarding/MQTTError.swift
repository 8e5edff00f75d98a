/// What an MQTT session can run into, in words for the log and `cuffctl forward status`.
enum MQTTError: Error, CustomStringConvertible {
    /// The broker could not be reached: no TCP connection, or TLS refused (`detail` carries OpenSSL's reason, such as
    /// `certificate verify failed`).
    case unreachable(String)
    /// The broker answered CONNECT with a refusal (MQTT 5 §3.2.2.2 reason codes, MQTT 3.1.1 §3.2.2.3 return codes),
    /// such as `Bad user name or password`.
    case refused(code: Int32, reason: String)
    /// The session ended while messages waited for their PUBACK (MQTT 5 §3.14 DISCONNECT, or the keep-alive timed out,
    /// §3.1.2.10).
    case lost(String)
    /// The broker answered a PUBLISH with a failure reason code (MQTT 5 §3.4.2.1), such as `Not authorized`.
    case publishRefused(String)

    var description: String {
        switch self {
        case .unreachable(let detail): "cannot connect: \(detail)"
        case .refused(_, let reason): "the broker refused the connection: \(reason)"
        case .lost(let detail): "the connection was lost: \(detail)"
        case .publishRefused(let reason): "the broker refused a message: \(reason)"
        }
    }
}
