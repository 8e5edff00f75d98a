/// Cuffs that can be told to start and stop a measurement over a vendor control point. Standard BPS has no
/// such command (GATT-HEALTH.md §12); the one known is QardioArm's, reverse-engineered and unverified:
/// characteristic 583CB5B3-875D-40ED-9098-C39EB0C1983D in 0x1810, write `F1 01` to inflate, `F1 02` to
/// cancel (exedre/qcardio-cli `qcardio/commands/arm.py`; "Reversing the QardioArm").
enum VendorStartStop {
    static let qardioArmControlPoint = "583cb5b3-875d-40ed-9098-c39eb0c1983d"
    static let controlPoints: Set<String> = [qardioArmControlPoint]

    /// The command that starts a measurement on the control point `uuid`.
    static func startCommand(for uuid: String) -> [UInt8] { [0xF1, 0x01] }
    /// The command that cancels one (the cuff deflates).
    static func stopCommand(for uuid: String) -> [UInt8] { [0xF1, 0x02] }
}
