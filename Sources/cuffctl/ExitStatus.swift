import ArgumentParser

/// cuffctl's exit codes beyond ArgumentParser's own (0 success, 64 usage error, as sysexits.h `EX_USAGE`).
enum ExitStatus {
    /// sysexits.h `EX_DATAERR`: the payload given is malformed.
    static let malformedPayload = ExitCode(65)
    /// sysexits.h `EX_UNAVAILABLE`: something cuffd needs is missing or blocked (`doctor`).
    static let unavailable = ExitCode(69)
    /// sysexits.h `EX_IOERR`: the store could not be opened or written.
    static let ioError = ExitCode(74)
}
