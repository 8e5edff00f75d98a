import ArgumentParser
import CuffdVersion

/// `cuffctl`: the command line of cuffd.
@main
struct Cuffctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cuffctl",
        abstract: "Control cuffd and work with blood-pressure cuff data.",
        discussion: """
            Exit codes: 0 success; 1 another failure; 64 usage error (bad arguments, unknown characteristic, bad hex); \
            65 malformed payload, or a failed measurement (one line on stderr names the problem); \
            66 cuff-forward has written no status; \
            68 unknown cuff or reading, or a cuff scan --until did not see; 69 cuffd is not running, Bluetooth is unavailable, or a doctor check failed; 73 --output cannot be written or is neither a regular file, a new path nor a character device; \
            74 export cannot write to standard output; 75 timed out; 76 the cuff refused pairing; 77 permission denied.
            """,
        version: Release.version,
        subcommands: [
            StatusCommand.self, DevicesCommand.self, ScanCommand.self, PairCommand.self, ForgetCommand.self, StartCommand.self,
            StopCommand.self, ReadingsCommand.self, HeartRateCommand.self, ResetEnergyCommand.self, ExportCommand.self, ForwardCommand.self, ReportCommand.self,
            StatsCommand.self, AddCommand.self, AnnotateCommand.self, DeleteCommand.self, HistoryCommand.self, GrantCommand.self, RevokeCommand.self, PermissionsCommand.self, CaptureCommand.self,
            DoctorCommand.self, DecodeCommand.self,
        ]
    )
}
