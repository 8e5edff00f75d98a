import ArgumentParser

/// cuffctl's exit codes beyond ArgumentParser's own (0 success, 64 usage error, as sysexits.h `EX_USAGE`).
enum ExitStatus {
    /// sysexits.h `EX_USAGE`: bad arguments, also when cuffd refuses them.
    static let usage = ExitCode(64)
    /// sysexits.h `EX_NOHOST`, taken for "no such cuff": the address names no cuff cuffd knows or sees; and for "no such
    /// reading": a sync identifier names no reading the caller may change.
    static let unknownDevice = ExitCode(68)
    /// sysexits.h `EX_PROTOCOL`, taken for "the cuff refused pairing": a wrong passkey, or an Omron cuff that took
    /// no pairing key (not in pairing mode); the bond cuffd made is removed (docs/omron.md §6).
    static let pairingRefused = ExitCode(76)
    /// `pair`: the cuff is paired and trusted, but the download of its stored readings on the pairing link stopped
    /// before the end (an Omron block that kept arriving broken). Not a sysexits code: the pairing did not fail, and
    /// scripts must be able to tell this from every failure.
    static let downloadIncomplete = ExitCode(3)
    /// sysexits.h `EX_TEMPFAIL`: nothing came in time (`start --timeout`, a pairing).
    static let timeout = ExitCode(75)
    /// sysexits.h `EX_NOPERM`: the bus policy or cuffd refused the caller.
    static let permissionDenied = ExitCode(77)
    /// sysexits.h `EX_DATAERR`: the payload given is malformed, or a reading entered by hand is implausible.
    static let malformedPayload = ExitCode(65)
    /// sysexits.h `EX_UNAVAILABLE`: cuffd is not running, Bluetooth is not available, or a `doctor` check failed.
    static let unavailable = ExitCode(69)
    /// sysexits.h `EX_NOINPUT`: an input file (cuff-forward's status) does not exist or cannot be read.
    static let noInput = ExitCode(66)
    /// sysexits.h `EX_CANTCREAT`: `export`/`report --output` could not create or write its file, or refused what is
    /// there (``OutputTarget``).
    static let cannotCreate = ExitCode(73)
    /// sysexits.h `EX_IOERR`: `export` could not write to standard output.
    static let ioError = ExitCode(74)
}
