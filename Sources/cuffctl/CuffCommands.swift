import ArgumentParser
import DBus
import Foundation
import TerminalEscaping

/// `cuffctl status`: cuffd, Bluetooth and the cuffs, for people.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show cuffd's state: Bluetooth, cuffs, the last reading.")
    @OptionGroup var bus: BusOptions

    func run() async throws {
        try await reportingFailures {
            let cuffd = try CuffdConnection(bus)
            let version = try await cuffd.property("Version")
            let status = try await cuffd.property("Status")
            print("cuffd \(TerminalText.escaped(version.plain)): \(TerminalText.escaped(status.plain))")
            for cuff in try await CuffListing(cuffd).cuffs { print("  " + cuff.line) }
        }
    }
}

/// `cuffctl devices [--json]`: the cuffs cuffd knows.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "devices", abstract: "List the cuffs cuffd knows.")
    @OptionGroup var bus: BusOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await reportingFailures {
            let cuffs = try await CuffListing(CuffdConnection(bus)).cuffs
            if json {
                print(JSONValue.array(cuffs.map(\.json)).rendered)
            } else {
                cuffs.forEach { print($0.line) }
            }
        }
    }
}

/// `cuffctl pair ADDRESS [--passkey N] [--timeout S]`.
struct PairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair", abstract: "Pair a cuff and trust it, so its readings are collected whenever it wakes.",
        discussion: "A cuff that shows a passkey needs it: give it with --passkey, or type it when asked.")
    @OptionGroup var bus: BusOptions
    @Argument(help: "The cuff's address, e.g. C4:F3:12:53:F2:C9.") var address: String
    @Option(help: "The six digits the cuff displays.") var passkey: UInt32?
    @Option(help: "Seconds to find and pair the cuff.") var timeout: Double = 60

    func run() async throws {
        try await reportingFailures {
            let cuffd = try CuffdConnection(bus)
            let requests = try await cuffd.signals(MatchRule(sender: CuffdConnection.name, interface: CuffdConnection.interface, member: "PasskeyRequested"))
            let relay = Task {
                for await request in requests where (try? request.argument(0, as: String.self))?.uppercased() == address.uppercased() {
                    guard let key = Self.askForPasskey() else { return }
                    _ = try? await cuffd.call("ProvidePasskey", [.string(address.uppercased()), .uint32(key)])
                }
            }
            defer { relay.cancel() }
            let key: Int32 = passkey.map { Int32($0) } ?? -1
            _ = try await cuffd.call("Pair", [.string(address.uppercased()), .int32(key), .double(timeout)], timeout: .seconds(timeout + 30))
            print("Paired and trusted \(address.uppercased()); its readings are collected whenever it wakes.")
        }
    }

    /// Prompts on a terminal; nil without one.
    static func askForPasskey() -> UInt32? {
        guard isatty(STDIN_FILENO) == 1 else {
            printToStandardError("cuffctl: the cuff asks for a passkey; run again with --passkey NNNNNN")
            return nil
        }
        printImmediately("Passkey shown on the cuff: ", newline: false)
        return readLine().flatMap { UInt32($0.trimmingCharacters(in: .whitespaces)) }
    }
}

/// `cuffctl forget ADDRESS`.
struct ForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "forget", abstract: "Remove a cuff's bond; its stored readings stay.")
    @OptionGroup var bus: BusOptions
    @Argument(help: "The cuff's address.") var address: String

    func run() async throws {
        try await reportingFailures {
            _ = try await CuffdConnection(bus).call("Forget", [.string(address.uppercased())])
            print("Forgot \(address.uppercased()).")
        }
    }
}

/// `cuffctl stop [ADDRESS]`.
struct StopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: "End a measurement session; a QardioArm is told to deflate.")
    @OptionGroup var bus: BusOptions
    @Argument(help: "The cuff's address; every session when omitted.") var address: String?

    func run() async throws {
        try await reportingFailures {
            _ = try await CuffdConnection(bus).call("Stop", [.string(address?.uppercased() ?? "")])
        }
    }
}

extension DBusValue {
    /// A property value as a person reads it.
    var plain: String {
        switch self {
        case .string(let text): text
        default: description
        }
    }
}
