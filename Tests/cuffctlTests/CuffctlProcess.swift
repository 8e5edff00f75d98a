import DBusTestSupport
import Foundation

/// Runs the `cuffctl` that `swift build` put beside this test bundle, as a user would.
struct CuffctlProcess {
    struct Outcome: Sendable {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    static let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("cuffctl")

    /// Runs cuffctl to completion off the cooperative pool (see `offCooperativePool`).
    static func run(_ arguments: [String]) async throws -> Outcome {
        try await offCooperativePool { try runBlocking(arguments) }
    }

    private static func runBlocking(_ arguments: [String]) throws -> Outcome {
        let result = try ExternalCommand.run(executable.path, arguments)
        return Outcome(status: result.status, standardOutput: result.standardOutput, standardError: result.standardError)
    }
}
