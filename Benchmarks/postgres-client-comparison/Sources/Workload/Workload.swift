import Glibc

/// What the two programs of the comparison do, each with its client library: connect with TLS (`verify-full`: the
/// server's certificate checked against the run's CA and its name), create the table, upsert one batch in a
/// transaction — the shape of cuff-forward's `CentralWriter`, each column one array parameter turned back into rows
/// by `unnest` —, then sit idle on the open connection until the driver signals.
public enum Workload {
    /// Readings per batch, as a page of a backlog might hold.
    public static let batchSize = 1_000

    public static func createTable(_ table: String) -> String {
        """
        CREATE TABLE IF NOT EXISTS \(table) (sync_identifier text PRIMARY KEY, sync_version bigint NOT NULL,
            systolic double precision NOT NULL, diastolic double precision NOT NULL, pulse_rate double precision,
            measured_at timestamptz NOT NULL, received_at timestamptz NOT NULL DEFAULT now())
        """
    }

    public static func upsert(_ table: String) -> String {
        """
        INSERT INTO \(table) AS r (sync_identifier, sync_version, systolic, diastolic, pulse_rate, measured_at)
        SELECT page.id, page.version, page.systolic, page.diastolic, page.pulse, to_timestamp(page.time)
        FROM unnest($1::text[], $2::bigint[], $3::float8[], $4::float8[], $5::float8[], $6::float8[])
            AS page (id, version, systolic, diastolic, pulse, time)
        ON CONFLICT (sync_identifier) DO UPDATE SET sync_version = excluded.sync_version, systolic = excluded.systolic,
            diastolic = excluded.diastolic, pulse_rate = excluded.pulse_rate, measured_at = excluded.measured_at,
            received_at = now()
        WHERE excluded.sync_version > r.sync_version
        """
    }

    /// Batch `number`'s columns: readings of their own, so that the table grows as a backlog's would.
    public struct Batch {
        public let identifiers: [String]
        public let versions: [Int64]
        // No NULLs: postgres-nio encodes arrays of non-optional elements only.
        public let systolic, diastolic, pulse, time: [Double]

        public init(_ number: Int) {
            let readings = (number * Workload.batchSize)..<((number + 1) * Workload.batchSize)
            identifiers = readings.map { "cuffd.bp:00000000-0000-7000-8000-\(String(1_000_000_000_000 + $0).suffix(12))" }
            versions = readings.map { _ in 1 }
            systolic = readings.map { Double(110 + $0 % 40) }
            diastolic = readings.map { Double(70 + $0 % 20) }
            pulse = readings.map { Double(60 + $0 % 30) }
            time = readings.map { 1_790_000_000 + Double($0) * 60 }
        }
    }

    /// The connection settings, from the command line: HOST PORT USER PASSWORD DATABASE ROOT_CERTIFICATE TABLE.
    public struct Arguments {
        public let host: String, port: Int, user: String, password: String, database: String, rootCertificate: String, table: String

        public init() {
            let arguments = CommandLine.arguments.dropFirst()
            guard arguments.count == 7, let port = Int(arguments[arguments.startIndex + 1]) else {
                let usage = "usage: \(CommandLine.arguments[0]) HOST PORT USER PASSWORD DATABASE ROOT_CERTIFICATE TABLE\n"
                _ = usage.withCString { write(2, $0, strlen($0)) }
                exit(64)
            }
            let values = Array(arguments)
            (host, self.port, user, password, database, rootCertificate, table) = (values[0], port, values[2], values[3], values[4], values[5], values[6])
        }
    }

    /// Blocks SIGUSR1 and SIGTERM in this thread and every thread started after it, so that only `serve` receives them.
    public static func blockSignals() {
        var signals = driverSignals()
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Says `ready BATCHES` on stdout, then sleeps in sigwait(3): each SIGUSR1 runs `more` and says `ready` again with
    /// its count; SIGTERM returns. Nothing else runs on this thread meanwhile.
    public static func serve(batchesDone: Int, more: () throws -> Int) rethrows {
        var done = batchesDone
        var signals = driverSignals()
        while true {
            print("ready \(done)")
            fflush(nil)
            var received: Int32 = 0
            sigwait(&signals, &received)
            if received == SIGTERM { return }
            done = try more()
        }
    }

    private static func driverSignals() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGUSR1)
        sigaddset(&signals, SIGTERM)
        return signals
    }
}
