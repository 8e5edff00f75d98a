import Foundation

/// A TCP port on 127.0.0.1 that nothing listens on now: bound to port 0, read back, released — for a server a test
/// starts (PostgreSQL with TLS, Mosquitto).
public func freeLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
    }
    guard bound else { throw TestFailure("no free port on 127.0.0.1") }
    return Int(UInt16(bigEndian: address.sin_port))
}
