import CMosquitto
import Glibc
import Synchronization

/// One MQTT session with a broker through libmosquitto (mosquitto.h), publishing at QoS 1 and telling when the broker
/// has acknowledged each message (PUBACK, MQTT 5 §4.3.2; MQTT 3.1.1 §4.3.2).
///
/// libmosquitto's own thread (`mosquitto_loop_start`) does the network I/O and sends a PINGREQ when the session has
/// been quiet for the keep-alive interval; the callbacks arrive on it and resume the waiting task. The library's
/// automatic reconnection is not used: a lost session fails what waits, and the caller connects anew after its
/// backoff, resending from its anchor (docs/home-assistant.md, "Delivery").
final class MQTTConnection: @unchecked Sendable {
    /// One PUBLISH.
    struct Message: Sendable, Equatable {
        var topic: String
        var payload: [UInt8]
        /// The broker keeps the message for later subscribers (MQTT 5 §3.3.1.3).
        var retain: Bool
    }

    struct Options: Sendable {
        var host: String
        var port: Int32
        var clientID: String
        var user: String?
        var password: String?
        /// TLS with the broker's certificate checked, including its host name, against `caFile` or the system's CAs.
        var tls: Bool
        var caFile: String?
        /// Presented to a broker that asks for a client certificate.
        var clientCertificate: ClientCertificate?
        /// Published by the broker when the session ends without DISCONNECT (MQTT 5 §3.1.2.5, the Will Message).
        var will: Message
        /// Seconds (MQTT 5 §3.1.2.10): the idle session's only traffic, a PINGREQ this often.
        var keepAlive: Int32 = 60
        /// Topic filters subscribed to at QoS 1 once connected; their messages go to `received`.
        var subscriptions: [String] = []
    }

    /// `MQTT 5` or `MQTT 3.1.1`: what the broker accepted.
    let protocolName: String
    private let usesTLS: Bool
    private let handle: OpaquePointer
    private let received: @Sendable (String, [UInt8]) -> Void
    private let ended: @Sendable () -> Void
    /// What libmosquitto's thread and the forwarder's task share.
    private struct State {
        var connack: Int32?
        var connackWaiter: CheckedContinuation<Int32, Never>?
        /// Message identifiers sent and not yet acknowledged; acknowledgements that came before `publish` recorded theirs.
        var outstanding: Set<Int32> = []
        var early: Set<Int32> = []
        var publishWaiter: CheckedContinuation<Void, any Error>?
        var failure: MQTTError?
        var lastLoggedError: String?
    }

    private let state = Mutex(State())

    private static let library: Void = { mosquitto_lib_init() }()

    /// Connects with MQTT 5, or with 3.1.1 when the broker does not speak 5 (``MQTTError/asksForMQTT311``), and
    /// subscribes. `received` gets the subscriptions' messages and `ended` is called when the session ends, both on
    /// libmosquitto's thread.
    static func open(
        _ options: Options, received: @escaping @Sendable (String, [UInt8]) -> Void, ended: @escaping @Sendable () -> Void
    ) async throws -> MQTTConnection {
        do {
            return try await MQTTConnection(options, version: MQTT_PROTOCOL_V5, received: received, ended: ended)
        } catch let first as MQTTError where first.asksForMQTT311 {
            do {
                return try await MQTTConnection(options, version: MQTT_PROTOCOL_V311, received: received, ended: ended)
            } catch let again as MQTTError {
                throw first.followed(by: again)
            }
        }
    }

    /// Whether the session has ended: the broker went away, or refused a message.
    var hasEnded: Bool { state.withLock { $0.failure != nil } }

    private init(
        _ options: Options, version: Int32, received: @escaping @Sendable (String, [UInt8]) -> Void, ended: @escaping @Sendable () -> Void
    ) async throws {
        _ = Self.library
        guard let handle = mosquitto_new(options.clientID, true, nil) else { throw MQTTError.unreachable("libmosquitto could not allocate a client") }
        self.handle = handle
        self.received = received
        self.ended = ended
        protocolName = version == MQTT_PROTOCOL_V5 ? "MQTT 5" : "MQTT 3.1.1"
        usesTLS = options.tls
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, version)
        // The library's thread waits this long before reconnecting on its own; `deinit` stops it before it does, and a
        // thread stopping in that wait ends within it.
        mosquitto_reconnect_delay_set(handle, 5, 5, false)
        mosquitto_connect_v5_callback_set(handle) { _, context, code, _, _ in MQTTConnection.of(context).connected(code) }
        mosquitto_disconnect_v5_callback_set(handle) { _, context, code, _ in MQTTConnection.of(context).disconnected(code) }
        mosquitto_publish_v5_callback_set(handle) { _, context, mid, reason, _ in MQTTConnection.of(context).acknowledged(mid, reason: reason) }
        mosquitto_message_v5_callback_set(handle) { _, context, message, _ in
            guard let message = message?.pointee, let topic = message.topic else { return }
            let payload = message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen))) } ?? []
            MQTTConnection.of(context).received(String(cString: topic), payload)
        }
        mosquitto_log_callback_set(handle) { _, context, level, text in
            if level == MOSQ_LOG_ERR, let text { MQTTConnection.of(context).logged(String(cString: text)) }
        }
        try configure(options)
        try await connect(options)
        for filter in options.subscriptions { mosquitto_subscribe(handle, nil, filter, 1) }
    }

    deinit {
        // No callback may reach this object once it is gone: each setter waits for a running callback to return.
        mosquitto_connect_v5_callback_set(handle, nil)
        mosquitto_disconnect_v5_callback_set(handle, nil)
        mosquitto_publish_v5_callback_set(handle, nil)
        mosquitto_message_v5_callback_set(handle, nil)
        mosquitto_log_callback_set(handle, nil)
        // DISCONNECT, so that the thread's loop ends instead of reconnecting — without DISCONNECT (a crash, SIGKILL,
        // the process's exit) the broker publishes the will instead. The thread may be in its reconnect wait, which
        // `mosquitto_loop_stop` does not always cut short, so it is stopped on a thread of its own.
        let handle = UncheckedHandle(pointer: handle)
        startDetachedThread {
            mosquitto_disconnect(handle.pointer)
            mosquitto_loop_stop(handle.pointer, false)
            mosquitto_destroy(handle.pointer)
        }
    }

    private static func of(_ context: UnsafeMutableRawPointer?) -> MQTTConnection {
        Unmanaged<MQTTConnection>.fromOpaque(context!).takeUnretainedValue()
    }

    private func configure(_ options: Options) throws {
        try options.will.payload.withUnsafeBytes { payload in
            try check(mosquitto_will_set(handle, options.will.topic, Int32(payload.count), payload.baseAddress, 1, options.will.retain), "the will")
        }
        if let user = options.user { try check(mosquitto_username_pw_set(handle, user, options.password), "the user name") }
        if options.tls {
            let client = options.clientCertificate
            try check(
                mosquitto_tls_set(handle, options.caFile, options.caFile == nil ? "/etc/ssl/certs" : nil, client?.certificateFile, client?.keyFile, nil),
                "TLS")
        }
    }

    /// The TCP (and TLS) connection, then the broker's CONNACK.
    private func connect(_ options: Options) async throws {
        // mosquitto_connect blocks until TCP and TLS are set up: on a thread of its own, not the forwarder's.
        let (code, error) = await withCheckedContinuation { (continuation: CheckedContinuation<(Int32, Int32), Never>) in
            startDetachedThread { [self] in
                let code = mosquitto_connect(handle, options.host, options.port, options.keepAlive)
                continuation.resume(returning: (code, errno))
            }
        }
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            let detail = code == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(error)) : String(cString: mosquitto_strerror(code))
            let logged = state.withLock { $0.lastLoggedError }
            // libmosquitto's TLS reads and writes say EPROTO for any OpenSSL failure.
            if logged == nil, usesTLS, code == MOSQ_ERR_ERRNO.rawValue, error == EPROTO { throw MQTTError.unreachable(Self.tlsEnded(detail)) }
            throw MQTTError.unreachable([detail, logged].compactMap { $0 }.joined(separator: ": "))
        }
        try check(mosquitto_loop_start(handle), "the network thread")
        // A TLS handshake that fails on the network thread ends it without a disconnect callback; OpenSSL's error,
        // logged, ends the wait (``logged(_:)``), and so does silence for as long as the keep-alive.
        let timeout = Task { [self] in
            try await Task.sleep(for: .seconds(Int(options.keepAlive)))
            endConnecting(.unreachable("no answer to CONNECT within \(options.keepAlive) s"))
        }
        defer { timeout.cancel() }
        let answer = await withCheckedContinuation { continuation in
            let known: Int32? = state.withLock { state in
                if state.connack == nil { state.connackWaiter = continuation }
                return state.connack
            }
            if let known { continuation.resume(returning: known) }
        }
        guard answer == 0 else {
            if answer < 0 { throw state.withLock { $0.failure } ?? MQTTError.lost("before CONNACK") }
            let reason = protocolName == "MQTT 5" && answer >= 0x80 ? mosquitto_reason_string(answer) : mosquitto_connack_string(answer)
            throw MQTTError.refused(code: answer, reason: reason.map { String(cString: $0) } ?? "code \(answer)")
        }
    }

    /// Publishes `messages` at QoS 1, in order, and returns once the broker has acknowledged every one.
    func publish(_ messages: [Message]) async throws {
        for message in messages {
            var mid: Int32 = 0
            let code = message.payload.withUnsafeBytes { payload in
                mosquitto_publish(handle, &mid, message.topic, Int32(payload.count), payload.baseAddress, 1, message.retain)
            }
            if code != MOSQ_ERR_SUCCESS.rawValue {
                throw state.withLock { $0.failure } ?? MQTTError.lost(String(cString: mosquitto_strerror(code)))
            }
            state.withLock { state in
                if state.early.remove(mid) == nil { state.outstanding.insert(mid) }
            }
        }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome: Result<Void, MQTTError>? = state.withLock { state in
                if let failure = state.failure { return .failure(failure) }
                if state.outstanding.isEmpty { return .success(()) }
                state.publishWaiter = continuation
                return nil
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    // MARK: libmosquitto's callbacks, on its thread

    private func connected(_ code: Int32) {
        let waiter = state.withLock { state in
            state.connack = code
            defer { state.connackWaiter = nil }
            return state.connackWaiter
        }
        waiter?.resume(returning: code)
    }

    /// The session ended; before CONNACK, a connection refused (``endedBeforeCONNACK(code:logged:usesTLS:protocolName:)``).
    private func disconnected(_ code: Int32) {
        let (usesTLS, protocolName) = (usesTLS, protocolName)
        let (connectWaiter, publishWaiter, failure) = state.withLock { state in
            if state.failure == nil {
                state.failure =
                    state.connack != nil
                    ? .lost(state.lastLoggedError ?? String(cString: mosquitto_strerror(code)))
                    : Self.endedBeforeCONNACK(code: code, logged: state.lastLoggedError, usesTLS: usesTLS, protocolName: protocolName)
            }
            if state.connack == nil { state.connack = -1 }
            defer { (state.connackWaiter, state.publishWaiter) = (nil, nil) }
            return (state.connackWaiter, state.publishWaiter, state.failure!)
        }
        connectWaiter?.resume(returning: -1)
        publishWaiter?.resume(throwing: failure)
        ended()
    }

    private func acknowledged(_ mid: Int32, reason: Int32) {
        let waiter: CheckedContinuation<Void, any Error>? = state.withLock { state in
            if reason >= 0x80, state.failure == nil {
                state.failure = .publishRefused(mosquitto_reason_string(reason).map { String(cString: $0) } ?? "reason \(reason)")
            }
            if state.outstanding.remove(mid) == nil { state.early.insert(mid) }
            guard state.outstanding.isEmpty || state.failure != nil else { return nil }
            defer { state.publishWaiter = nil }
            return state.publishWaiter
        }
        guard let waiter else { return }
        if let failure = state.withLock({ $0.failure }) { waiter.resume(throwing: failure) } else { waiter.resume() }
    }

    private func logged(_ text: String) {
        let connecting = state.withLock { state in
            state.lastLoggedError = text
            return state.connack == nil
        }
        if connecting { endConnecting(.unreachable(text)) }
    }

    /// Ends the wait for CONNACK with `failure`, unless the broker has answered.
    private func endConnecting(_ failure: MQTTError) {
        let waiter: CheckedContinuation<Int32, Never>? = state.withLock { state in
            guard state.connack == nil else { return nil }
            state.connack = -1
            state.failure = failure
            defer { state.connackWaiter = nil }
            return state.connackWaiter
        }
        waiter?.resume(returning: -1)
    }

    /// What a session that ended before CONNACK with libmosquitto's `code` ran into, `logged` the error libmosquitto
    /// logged. `MOSQ_ERR_CONN_LOST` with nothing logged — the socket's end or reset, or TLS's close_notify — is the
    /// broker closing the connection after CONNECT: TCP and name lookups fail in `mosquitto_connect`, and TLS's failures
    /// are logged or `EPROTO`. That is ``MQTTError/closedBeforeCONNACK(protocols:)``, which has MQTT 5 offered again as
    /// 3.1.1 (docs/reference/MQTT.md §2). Anything else over TLS without OpenSSL's reason is ``tlsEnded(_:)``.
    static func endedBeforeCONNACK(code: Int32, logged: String?, usesTLS: Bool, protocolName: String) -> MQTTError {
        if let logged { return .unreachable(logged) }
        if code == MOSQ_ERR_CONN_LOST.rawValue { return .closedBeforeCONNACK(protocols: [protocolName]) }
        let reason = String(cString: mosquitto_strerror(code))
        return .unreachable(usesTLS ? tlsEnded(reason) : reason)
    }

    /// A TLS session the broker ended before CONNACK without OpenSSL's reason reaching libmosquitto's log. A broker that
    /// wants a client certificate, or distrusts the one presented, ends it after the handshake — TLS 1.3 sends the
    /// client's certificate once the client's side of the handshake is done (RFC 8446 §4.4.2) —, and libmosquitto logs
    /// OpenSSL's reason (`tlsv13 alert certificate required`) only when it reads the broker's alert before the socket's
    /// end; else all it has is `Protocol error`.
    private static func tlsEnded(_ detail: String) -> String {
        "the broker ended the TLS session before answering CONNECT (\(detail)): it may require a client certificate (CertificateFile=, KeyFile=) or refuse the one presented; the broker's log says which"
    }

    private func check(_ code: Int32, _ what: String) throws {
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw MQTTError.unreachable("\(what): \(String(cString: mosquitto_strerror(code)))") }
    }
}

/// libmosquitto's client handle, handed to the thread that stops it once its ``MQTTConnection`` is gone.
private struct UncheckedHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
