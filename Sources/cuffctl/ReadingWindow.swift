import ArgumentParser
import Foundation

/// `--since`, `--until` and `--device`, as `readings`, `heart-rate`, `stats` and `export` take them (DATE:
/// ``DateArgument``).
struct ReadingWindow: ParsableArguments {
    @Option(help: "Only what was measured at or after DATE (ISO 8601, a date, or a span back from now: 30d, 12w).") var since: String?
    @Option(help: "Only what was measured before DATE.") var until: String?
    @Option(help: "Only this device (its address).") var device: String?

    /// The filter these options, `user` and `person` make; `--since` after `--until` is exit 64.
    func match(user: UInt8? = nil, person: String? = nil, now: Date = Date()) throws -> ReadingMatch {
        let start = try since.map { try DateArgument.parse($0, now: now) }
        let end = try until.map { try DateArgument.parse($0, now: now) }
        if let start, let end, start > end {
            throw CuffctlFailure(message: "--since \(since!) is after --until \(until!)", status: ExitStatus.usage)
        }
        return ReadingMatch(since: start, until: end, device: device, user: user, person: person)
    }
}
