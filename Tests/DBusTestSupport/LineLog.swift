/// Lines a component logged (cuff-sim's event lines), for checks of what it did; a test waits for a line
/// rather than for a time.
public final class LineLog: Sendable {
    private let lines = Observed<[String]>([])

    public init() {}

    public func append(_ line: String) { lines.update { $0.append(line) } }

    public var all: [String] { lines.value }

    /// How many lines contain `fragment`.
    public func count(_ fragment: String) -> Int { all.filter { $0.contains(fragment) }.count }

    /// Waits until `count` lines contain `fragment`.
    public func waitFor(_ fragment: String, count: Int = 1, within timeout: Duration = testDeadline) async throws {
        try await lines.wait(for: "\(count) line(s) with \"\(fragment)\" in\n\(all.joined(separator: "\n"))", within: timeout) { lines in
            lines.filter { $0.contains(fragment) }.count >= count ? () : nil
        }
    }
}
