import CMosquitto
import DBusTestSupport
import Glibc
import Testing

@testable import Forwarding

/// When cuff-forward offers a broker MQTT 3.1.1 after MQTT 5 (docs/reference/MQTT.md §1, §2): only when the broker
/// said it does not speak 5, or closed the connection after CONNECT without answering; never for what 3.1.1 would run
/// into the same way. The end-to-end check against a broker that speaks only 3.1.1 is in EndToEndTests
/// (`MQTT311ForwardingTests`).
@Suite("MQTT 3.1.1 fallback")
struct MQTTProtocolFallbackTests {
    @Test("Offered again as 3.1.1: CONNACK 0x84 (MQTT 5) or 1 (3.1.1), or closed unanswered; not a refusal for another reason, nor what fails before CONNECT or after CONNACK")
    func whichFailuresAskForMQTT311() {
        #expect(MQTTError.refused(code: 0x84, reason: "Unsupported protocol version").asksForMQTT311)
        #expect(MQTTError.refused(code: 1, reason: "Connection Refused: unacceptable protocol version.").asksForMQTT311)
        #expect(MQTTError.closedBeforeCONNACK(protocols: ["MQTT 5"]).asksForMQTT311)
        #expect(!MQTTError.refused(code: 0x86, reason: "Bad user name or password").asksForMQTT311)
        #expect(!MQTTError.refused(code: 5, reason: "Connection Refused: not authorised.").asksForMQTT311)
        #expect(!MQTTError.unreachable("Connection refused").asksForMQTT311)
        #expect(!MQTTError.lost("The connection was lost.").asksForMQTT311)
        #expect(!MQTTError.publishRefused("Not authorized").asksForMQTT311)
    }

    @Test("A session ended before CONNACK: the connection closed in good order with nothing logged is 'closed before answering CONNECT', over TLS too; OpenSSL's reason, or TLS's EPROTO, is not")
    func whatEndedBeforeCONNACK() {
        let closed = MOSQ_ERR_CONN_LOST.rawValue
        for usesTLS in [false, true] {
            let ended = MQTTConnection.endedBeforeCONNACK(code: closed, logged: nil, usesTLS: usesTLS, protocolName: "MQTT 5")
            guard case .closedBeforeCONNACK(let protocols) = ended else {
                Issue.record("\(ended)")
                continue
            }
            #expect(protocols == ["MQTT 5"])
        }
        let alert = "OpenSSL Error[0]: error:0A00045C:SSL routines::tlsv13 alert certificate required"
        let refusedByTLS = MQTTConnection.endedBeforeCONNACK(code: closed, logged: alert, usesTLS: true, protocolName: "MQTT 5")
        #expect(!refusedByTLS.asksForMQTT311 && "\(refusedByTLS)".contains("certificate required"), "\(refusedByTLS)")
        errno = EPROTO
        let endedTLS = MQTTConnection.endedBeforeCONNACK(code: MOSQ_ERR_ERRNO.rawValue, logged: nil, usesTLS: true, protocolName: "MQTT 5")
        #expect(!endedTLS.asksForMQTT311 && "\(endedTLS)".contains("client certificate"), "\(endedTLS)")
    }

    @Test("3.1.1 failing too: closed unanswered both times is said in one sentence; any other failure of 3.1.1 is reported as it is")
    func bothAttemptsInWords() {
        let closed = MQTTError.closedBeforeCONNACK(protocols: ["MQTT 5"])
        let both = closed.followed(by: .closedBeforeCONNACK(protocols: ["MQTT 3.1.1"]))
        #expect("\(both)" == "the broker closed the connection before answering CONNECT, with MQTT 5 and with MQTT 3.1.1")
        let refused = closed.followed(by: .refused(code: 4, reason: "Connection Refused: bad user name or password."))
        #expect("\(refused)" == "the broker refused the connection: Connection Refused: bad user name or password.")
        let afterRefusal = MQTTError.refused(code: 0x84, reason: "Unsupported protocol version").followed(by: .closedBeforeCONNACK(protocols: ["MQTT 3.1.1"]))
        #expect("\(afterRefusal)" == "the broker closed the connection before answering CONNECT, with MQTT 3.1.1")
    }

    @Test("A TCP connection refused (a port bound on 127.0.0.1 and not listening) fails before CONNECT, as one that does not have 3.1.1 offered")
    func refusedConnectionIsNotAFallback() async throws {
        let (socket, port) = try boundLoopbackSocket()
        defer { close(socket) }
        let options = MQTTConnection.Options(
            host: "127.0.0.1", port: Int32(port), clientID: "fallback-test", user: nil, password: nil, tls: false,
            caFile: nil, clientCertificate: nil, will: MQTTConnection.Message(topic: "t", payload: [], retain: false))
        do {
            _ = try await MQTTConnection.open(options, received: { _, _ in }, ended: {})
            Issue.record("connected to a port nothing listens on")
        } catch let error as MQTTError {
            guard case .unreachable(let detail) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(detail == "Connection refused" && !error.asksForMQTT311)
        }
    }
}
