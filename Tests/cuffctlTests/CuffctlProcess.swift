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
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }
}
