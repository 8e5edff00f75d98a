@testable import Forwarding
import Testing

/// Which of the server's failures are a lost session (``PostgresError/endsSession(_:)``): retried on a new session
/// with backoff, where any other failure ends cuff-forward (exit 69). An administrator's `pg_terminate_backend` in the
/// middle of a page's COPY once came as 57P01 in the COPY's result while libpq still held the connection good.
@Suite struct PostgresErrorTests {
    @Test(arguments: ["57P01", "57P02", "57P03", "08000", "08003", "08006"])
    func sessionEnded(_ state: String) {
        #expect(PostgresError.endsSession(state))
    }

    @Test(arguments: ["23505", "42P01", "42501", "28P01", "57014", "22P02"])
    func refusalsAreNot(_ state: String) {
        #expect(!PostgresError.endsSession(state))
    }

    @Test func noStateIsNot() {
        #expect(!PostgresError.endsSession(nil))
    }
}
