import DBusTestSupport
import Foundation
import Testing

/// What the shipped programs hold (debian/cuffd.install, debian/cuff-forward.install): none of the emulator's, the
/// benchmarks' or the tests' code, and no allocator of their own. Checked on the programs `swift build` put beside
/// this test bundle, by their symbols (binutils' nm): a program holds a module when it defines a symbol that the
/// module's object files, in the same build directory, define as strong globals.
@Suite("Shipped programs")
struct ShippedProgramTests {
    static let buildDirectory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()

    /// Code only the project's tools and tests run: cuff-sim's emulator and its replay, the malloc interposer and
    /// the sink of decode-benchmark, what the benchmarks share, the tests' private buses and in-memory Bluetooth.
    static let toolModules = [
        "CuffSimulation", "ScenarioReplay", "CAllocationCounter", "CBenchmarkSink", "BenchmarkSupport", "DBusTestSupport", "GatewayTestSupport",
    ]

    /// Each program built for a package, with what it must not hold beyond ``toolModules``: cuffctl asks cuffd over
    /// the bus or reads a store file (ReadingQueries), and holds nothing of the daemon itself.
    static let programs: [(name: String, alsoWithout: [String])] = [
        ("cuffd", []), ("cuffctl", ["Daemon"]), ("cuff-forward", []),
    ]

    /// glibc's allocator: a program that defines one in its dynamic symbol table takes the allocations of every
    /// library it loads (CAllocationCounter does, for decode-benchmark).
    static let allocator: Set<String> = ["malloc", "free", "calloc", "realloc", "memalign", "aligned_alloc", "posix_memalign"]

    @Test(arguments: programs.map(\.name))
    func holdsNoToolOrTestModule(program: String) async throws {
        let forbidden = Self.toolModules + (Self.programs.first { $0.name == program }?.alsoWithout ?? [])
        // nm over the program and every object file of each module: seconds, off the cooperative pool.
        let (defined, modules) = try await offCooperativePool {
            (try Self.symbols(["--defined-only"], Self.buildDirectory.appendingPathComponent(program).path),
             try forbidden.map { ($0, try Self.strongGlobals(of: $0)) })
        }
        #expect(!defined.isEmpty, "nm found no symbols in \(program)")
        for (module, moduleSymbols) in modules {
            let held = defined.intersection(moduleSymbols)
            #expect(held.count == 0, "\(program) holds \(held.count) symbols of \(module), such as \(held.sorted().prefix(3))")
        }
    }

    @Test(arguments: programs.map(\.name))
    func exportsNoAllocator(program: String) async throws {
        let exported = try await offCooperativePool {
            try Self.symbols(["--dynamic", "--defined-only"], Self.buildDirectory.appendingPathComponent(program).path)
        }
        #expect(exported.intersection(Self.allocator).isEmpty, "\(program) exports \(exported.intersection(Self.allocator).sorted())")
    }

    /// The symbols a module's object files define as strong globals: what linking the module puts into a program,
    /// and no other module defines (a weak definition, such as an imported C type's metadata, is in many at once).
    static func strongGlobals(of module: String) throws -> Set<String> {
        let directory = buildDirectory.appendingPathComponent("\(module).build")
        let objects = (FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".o") }.map { directory.appendingPathComponent($0).path }
        guard !objects.isEmpty else { throw TestFailure("no object files of \(module) in \(directory.path): build everything first (swift build --build-tests)") }
        var strong = Set<String>()
        for object in objects {
            strong.formUnion(try entries(["--defined-only", "--extern-only", object]).compactMap { type, name in
                // Upper case is global; W and V are weak.
                type.isUppercase && type != "W" && type != "V" ? name : nil
            })
        }
        return strong
    }

    /// The names of the symbols `nm` lists with `options`.
    static func symbols(_ options: [String], _ file: String) throws -> Set<String> {
        Set(try entries(options + [file]).map(\.name))
    }

    /// The type letter and name of each symbol `nm` lists, from its default format, `value type name`: a name may
    /// hold spaces (Swift's `symbolic …` references).
    static func entries(_ arguments: [String]) throws -> [(type: Character, name: String)] {
        let nm = try ExternalCommand.run("nm", arguments)
        guard nm.status == 0 else { throw TestFailure("nm \(arguments.joined(separator: " ")): \(nm.standardError)") }
        return nm.standardOutput.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let type = fields[1].first else { return nil }
            return (type, String(fields[2]))
        }
    }
}
