import ArgumentParser

/// `cuffctl benchmark …`: speed and memory figures measured in this process.
struct BenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "benchmark",
        abstract: "Measure how fast cuffd's hot paths run.",
        subcommands: [DecodeBenchmarkCommand.self]
    )
}
