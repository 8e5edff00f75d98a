import ArgumentParser

/// `cuffctl`: the command line of cuffd.
@main
struct Cuffctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cuffctl",
        abstract: "Control cuffd and work with blood-pressure cuff data.",
        discussion: """
            Exit codes: 0 success; 64 usage error (bad arguments, unknown characteristic, bad hex); \
            65 malformed payload (one line on stderr names the problem); 69 a doctor check failed.
            """,
        subcommands: [DoctorCommand.self, DecodeCommand.self, BenchmarkCommand.self]
    )
}
