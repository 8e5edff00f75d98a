import Foundation

/// A TCP socket bound to a free port on 127.0.0.1 and not listening: while it stays open, nothing else takes the port and
/// a connection to it is refused. The caller closes `descriptor`.
public func boundLoopbackSocket() throws -> (descriptor: Int32, port: Int) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
    }
    guard bound else {
        close(descriptor)
        throw TestFailure("no free port on 127.0.0.1")
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
}

/// A TCP port on 127.0.0.1 that nothing listens on now: bound to port 0, read back, released — for a server a test
/// starts (PostgreSQL with TLS, Mosquitto, RabbitMQ).
public func freeLoopbackPort() throws -> Int {
    let (descriptor, port) = try boundLoopbackSocket()
    close(descriptor)
    return port
}
