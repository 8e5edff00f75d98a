import ArgumentParser

/// `cuffctl`: the command line of cuffd.
@main
struct Cuffctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cuffctl",
        abstract: "Control cuffd and work with blood-pressure cuff data.",
        discussion: """
            Exit codes: 0 success; 64 usage error (bad arguments, unknown characteristic, bad hex); \
            65 malformed payload or scenario (one line on stderr names the problem); 69 a doctor check failed; \
            74 the store cannot be opened or written.
            """,
        subcommands: [ReplayCommand.self, DoctorCommand.self, DecodeCommand.self, BenchmarkCommand.self]
    )
}
