import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A bound AF_UNIX datagram socket standing in for systemd's notify socket or the journal's socket.
public final class DatagramReceiver: @unchecked Sendable {
    public let path: String
    private let descriptor: Int32

    /// Binds a socket at a fresh path in the temporary directory, or in the abstract namespace.
    public init(abstract: Bool = false) throws {
        let name = "cuffd-test-\(UUID().uuidString.prefix(8))"
        path = abstract ? "@" + name : FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno)!) }
    }

    deinit {
        close(descriptor)
        if !path.hasPrefix("@") { unlink(path) }
    }

    /// The next datagram, and a descriptor passed with it if any; nil after `timeout` of silence.
    public func receive(timeout: Duration = testDeadline) -> (bytes: [UInt8], passed: Int32?)? {
        let (seconds, attoseconds) = timeout.components
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var control = [UInt8](repeating: 0, count: 64)
        return buffer.withUnsafeMutableBytes { body in
            control.withUnsafeMutableBytes { controlBuffer in
                var vector = iovec(iov_base: body.baseAddress, iov_len: body.count)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var message = msghdr()
                    message.msg_iov = vectorPointer
                    message.msg_iovlen = 1
                    message.msg_control = controlBuffer.baseAddress
                    message.msg_controllen = controlBuffer.count
                    let count = recvmsg(descriptor, &message, 0)
                    guard count >= 0 else { return nil }
                    var passed: Int32?
                    if message.msg_controllen >= MemoryLayout<cmsghdr>.stride + 4 {
                        let header = controlBuffer.baseAddress!.assumingMemoryBound(to: cmsghdr.self).pointee
                        if header.cmsg_type == Int32(SCM_RIGHTS) {
                            passed = controlBuffer.baseAddress!.advanced(by: MemoryLayout<cmsghdr>.stride).load(as: Int32.self)
                        }
                    }
                    return (Array(body.prefix(count)), passed)
                }
            }
        }
    }

    /// The next datagram as text.
    public func receiveText() -> String? { receive().map { String(decoding: $0.bytes, as: UTF8.self) } }
}

/// Parses a native-protocol journal entry into its fields (names may repeat; the last wins here).
public func parseJournalEntry(_ bytes: [UInt8]) -> [String: String] {
    var fields: [String: String] = [:]
    var index = 0
    while index < bytes.count {
        guard let end = bytes[index...].firstIndex(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "\n") }) else { break }
        let name = String(decoding: bytes[index ..< end], as: UTF8.self)
        if bytes[end] == UInt8(ascii: "=") {
            let lineEnd = bytes[(end + 1)...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            fields[name] = String(decoding: bytes[(end + 1) ..< lineEnd], as: UTF8.self)
            index = lineEnd + 1
        } else {
            let length = bytes[(end + 1) ..< (end + 9)].reversed().reduce(0) { $0 << 8 | Int($1) }
            fields[name] = String(decoding: bytes[(end + 9) ..< (end + 9 + length)], as: UTF8.self)
            index = end + 9 + length + 1
        }
    }
    return fields
}
