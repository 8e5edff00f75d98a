/// A TCP port as forward.conf's URLs write it (RFC 3986 §3.2.3): decimal digits only, of a number 1–65535 — 0 is no
/// port to connect to, and libmosquitto and libpq would refuse a larger one only when connecting, again at each retry.
enum PortNumber {
    /// The port `text` names; nil when it names none.
    static func parse(_ text: some StringProtocol) -> Int32? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int32(text), (1...65_535).contains(number) else { return nil }
        return number
    }
}
