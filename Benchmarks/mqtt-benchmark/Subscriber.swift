import DBusTestSupport
import Foundation

/// mosquitto_sub at QoS 1 on `topics`, exiting after `count` messages, each printed in mosquitto_sub's `format` (`%p`
/// the payload, `%U` the Unix time of its arrival with nanoseconds, `%t` the topic), one a line, into `output`.
func subscriber(_ broker: MosquittoBroker, _ topics: [String], count: Int, format: String = "%p", output: String) throws -> ChildProcess {
    let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    defer { close(descriptor) }
    let child = try ChildProcess(
        "mosquitto_sub", broker.clientOptions + ["-q", "1", "-C", "\(count)", "-F", format] + topics.flatMap { ["-t", $0] },
        standardOutput: .descriptor(descriptor))
    // mosquitto_sub says nothing once subscribed; on loopback a second is ample.
    Thread.sleep(forTimeInterval: 1)
    return child
}
