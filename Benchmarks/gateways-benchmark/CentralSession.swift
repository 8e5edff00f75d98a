import CPostgreSQL
import Foundation

/// A session of the benchmark's own at the central server, through libpq (PostgreSQL 15 documentation, chapter 34):
/// counting rows without starting a psql each time, or listening for notifications.
final class CentralSession: @unchecked Sendable {
    private let connection: OpaquePointer

    /// Connects with a conninfo string (§34.1.1); the benchmark ends on a failure.
    init(_ conninfo: String) {
        guard let connection = PQconnectdb(conninfo), PQstatus(connection) == CONNECTION_OK else {
            fatalError("cannot connect to the central server (\(conninfo))")
        }
        self.connection = connection
    }

    deinit { PQfinish(connection) }

    /// The first column of the first row `sql` returns.
    func value(_ sql: String) -> String {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK, PQntuples(result) > 0 else {
            fatalError("\(sql): \(String(cString: PQerrorMessage(connection)))")
        }
        return String(cString: PQgetvalue(result, 0, 0))
    }

    /// `LISTEN channel` (§34.9, asynchronous notification), then on a thread of its own, for the life of the process:
    /// each notification's payload handed to `received` with the moment this process took it from the socket, until
    /// the session ends. The server delivers a notification only once the transaction that sent it has committed.
    func listen(_ channel: String, _ received: @escaping @Sendable (String, Date) -> Void) {
        PQclear(PQexec(connection, "LISTEN \(channel)"))
        Thread.detachNewThread { [self] in
            var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
            while poll(&descriptor, 1, -1) >= 0, PQconsumeInput(connection) == 1 {
                while let notification = PQnotifies(connection) {
                    received(String(cString: notification.pointee.extra), Date())
                    PQfreemem(notification)
                }
            }
        }
    }
}
