#if canImport(Glibc)
import Glibc
#endif

/// Sends datagrams to an `AF_UNIX`/`SOCK_DGRAM` socket: the notify socket of `sd_notify(3)` and the
/// journal's native socket. A path starting with `@` names the abstract namespace (sd_notify(3),
/// "NOTIFY_SOCKET … abstract namespace socket if it starts with @").
final class UnixDatagramSocket: Sendable {
    private let descriptor: Int32
    private let address: sockaddr_un
    private let addressLength: socklen_t

    /// Opens an unbound datagram socket aimed at `path`; nil when the path is too long or no socket can be made.
    init?(destination path: String) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        addressLength = socklen_t(pathOffset + bytes.count + (abstract ? 0 : 1))
        self.address = address
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
    }

    deinit { close(descriptor) }

    /// Sends one datagram; returns 0 or the errno of the failure.
    func send(_ payload: [UInt8]) -> Int32 {
        send(payload, passing: nil)
    }

    /// Sends one datagram with `descriptor` attached as `SCM_RIGHTS`; returns 0 or the errno.
    func send(_ payload: [UInt8], passing passed: Int32?) -> Int32 {
        var address = self.address
        var payload = payload
        return payload.withUnsafeMutableBytes { body in
            withUnsafeMutablePointer(to: &address) { addressPointer in
                var vector = iovec(iov_base: body.baseAddress, iov_len: body.count)
                var message = msghdr()
                message.msg_name = UnsafeMutableRawPointer(addressPointer)
                message.msg_namelen = addressLength
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    message.msg_iov = vectorPointer
                    message.msg_iovlen = 1
                    guard let passed else {
                        return sendmsg(descriptor, &message, Int32(MSG_NOSIGNAL)) < 0 ? errno : 0
                    }
                    let controlLength = Int(cmsgSpace(MemoryLayout<Int32>.size))
                    var control = [UInt8](repeating: 0, count: controlLength)
                    return control.withUnsafeMutableBytes { controlBuffer in
                        message.msg_control = controlBuffer.baseAddress
                        message.msg_controllen = controlLength
                        let header = controlBuffer.baseAddress!.assumingMemoryBound(to: cmsghdr.self)
                        header.pointee.cmsg_level = SOL_SOCKET
                        header.pointee.cmsg_type = Int32(SCM_RIGHTS)
                        header.pointee.cmsg_len = Int(cmsgLength(MemoryLayout<Int32>.size))
                        let data = controlBuffer.baseAddress! + MemoryLayout<cmsghdr>.stride
                        data.storeBytes(of: passed, as: Int32.self)
                        return sendmsg(descriptor, &message, Int32(MSG_NOSIGNAL)) < 0 ? errno : 0
                    }
                }
            }
        }
    }

    /// Raises the send buffer, as the journal protocol advises before large entries.
    func raiseSendBuffer(to bytes: Int32) {
        var size = bytes
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
}

/// `CMSG_LEN` and `CMSG_SPACE` (cmsg(3)), which Swift does not import as macros.
private func cmsgLength(_ dataLength: Int) -> Int { MemoryLayout<cmsghdr>.stride + dataLength }

private func cmsgSpace(_ dataLength: Int) -> Int {
    let align = MemoryLayout<Int>.size
    return MemoryLayout<cmsghdr>.stride + (dataLength + align - 1) / align * align
}
