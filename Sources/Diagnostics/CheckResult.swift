/// The outcome of one `cuffctl doctor` check.
public struct CheckResult: Equatable, Sendable {
    public enum Status: String, Sendable {
        case ok
        /// Works, but something deserves attention.
        case warning
        /// cuffd cannot work until this is fixed.
        case failure
    }

    /// What was checked ("adapters", "rfkill", …).
    public let name: String
    public let status: Status
    /// What was found, and for a problem what to do about it.
    public let detail: String

    public init(_ name: String, _ status: Status, _ detail: String) {
        self.name = name
        self.status = status
        self.detail = detail
    }
}
