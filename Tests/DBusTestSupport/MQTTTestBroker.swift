/// An MQTT broker a test starts for itself (``MosquittoBroker``, ``RabbitMQBroker``): where it listens, the login it
/// has for cuff-forward, and how the test's own clients — Mosquitto's `mosquitto_sub` and `mosquitto_pub` — reach it.
public protocol MQTTTestBroker: AnyObject, Sendable {
    /// The user cuff-forward and the test's clients log in as.
    static var user: String { get }
    /// The password of ``user``; none when the broker lets anyone in.
    var password: String? { get }
    var host: String { get }
    var port: Int { get }
    /// The options of `mosquitto_sub` and `mosquitto_pub` that reach the broker and log in (the password on their command
    /// line: a test's throwaway one; cuff-forward reads its own from a file).
    var clientOptions: [String] { get }
    /// Stops the broker and removes its folder; called in the test's teardown.
    func remove()
}
