// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// How the installed programs (cuffd, cuff-forward) are linked in a release build (`make`, the package, `swift build -c
/// release`), for a small resident footprint (Benchmarks/RESULTS.md, "The daemon"): lld with packed relative
/// relocations (DT_RELR, glibc ≥ 2.36: ld.so reads 17 KiB of them instead of 2.1 MiB), no dynamic symbol table beyond
/// what libraries need (the runtime's dladdr scanned 15 000 exported names at start-up), the functions the program
/// runs placed together (`order`, the list Benchmarks/cuffd-order or Benchmarks/cuff-forward-order writes; the
/// release build checks that it still matches: scripts/check-cuffd-order), and `archives` linked from their .a instead
/// of their shared objects, so that only what the program runs of them is resident, among the ordered code. libstdc++
/// is linked only by the static-stdlib build (`make`), which alone passes -lstdc++. The linker finds the shared objects
/// first (SwiftPM puts pkg-config's -L before these flags, and lld's -Bstatic is positional), so --remap-inputs swaps
/// each for a script in link/ naming the archive; the archives of PostgreSQL's server development package that libpq.a
/// needs are found in `pg_config --pkglibdir` (link/libpq.ld). Debug and test builds link as SwiftPM does by default.
func smallResidentFootprint(order: String, archives: [String]) -> [LinkerSetting] {
    [.unsafeFlags(
        ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
         "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/\(order)", "-Xlinker", "--no-warn-symbol-ordering"]
            + archives.flatMap { ["-Xlinker", "--remap-inputs=*/\($0).so=\(Context.packageDirectory)/link/\($0).ld"] }
            + (archives.contains("libpq") ? postgreSQLLibraryDirectory().map { ["-Xlinker", "-L\($0)"] } ?? [] : []),
        .when(configuration: .release))]
}

/// `pg_config --pkglibdir`: where the PostgreSQL that libpq-dev belongs to keeps its server development package's
/// archives (/usr/lib/postgresql/MAJOR/lib on Debian; docs/installation.md), or `CUFFD_POSTGRESQL_LIBDIR`, in which the
/// Makefile passes pg_config's answer: SwiftPM keeps a manifest's result until the manifest or the environment changes,
/// and so would keep an old PostgreSQL's folder across an upgrade. Without either, none: a release link of cuff-forward
/// then fails naming libpgcommon_shlib.a.
func postgreSQLLibraryDirectory() -> String? {
    if let directory = ProcessInfo.processInfo.environment["CUFFD_POSTGRESQL_LIBDIR"], !directory.isEmpty { return directory }
    let process = Process(), output = Pipe()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["pg_config", "--pkglibdir"]
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let directory = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return process.terminationStatus == 0 ? directory.trimmingCharacters(in: .whitespacesAndNewlines) : nil
}

let package = Package(
    name: "cuffd",
    products: [
        .library(name: "GATTHealth", targets: ["GATTHealth"]),
        .executable(name: "cuffctl", targets: ["cuffctl"]),
        .executable(name: "cuff-sim", targets: ["cuff-sim"]),
        .executable(name: "cuffd", targets: ["cuffd"]),
        .executable(name: "cuff-forward", targets: ["cuff-forward"]),
        .library(name: "HealthStore", targets: ["HealthStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
    ],
    targets: [
        // Pure codecs for the Blood Pressure, Heart Rate, time and Device Information GATT
        // characteristics. No I/O, no Foundation, no allocation on the decode path.
        .target(name: "GATTHealth"),
        // cuffd's version, generated from debian/changelog, the one place it is kept (Plugins/ReleaseVersion).
        .target(name: "CuffdVersion", plugins: ["ReleaseVersion"]),
        .plugin(name: "ReleaseVersion", capability: .buildTool()),
        .executableTarget(
            name: "cuffctl",
            dependencies: [
                "GATTHealth", "DBus", "CuffdVersion", "BlueZ",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "DecodeArguments",
                "DurableFiles",
                "JSONEscaping",
                "ReadingColumns",
                "Diagnostics",
                "TerminalEscaping",
                "ForwardingStatus",
                "HealthStore",
                "ReadingQueries",
            ]
        ),
        // libdbus-1, and the Swift D-Bus layer over it: a private connection on a dispatch queue,
        // typed marshalling, async calls, signal streams, exported objects.
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .target(name: "DBus", dependencies: ["Broadcasting", "CDBus"]),
        // One subscriber-broadcast shape for every event source: each subscriber reads a stream of its own.
        .target(name: "Broadcasting"),
        // The typed client of org.bluez: one mirror of its tree, agent, GattProfile1 auto-connect, recovery.
        .target(name: "BlueZ", dependencies: ["Broadcasting", "DBus", "GATTHealth"]),
        // The domain: cuff sessions, readings, correlation inputs, dedupe keys, time handling.
        .target(name: "Gateway", dependencies: ["BlueZ", "Broadcasting", "CuffRecording", "GATTHealth"]),
        // A cuff's conversation as `cuffctl capture` records it and cuff-sim replays it: the one statement of the format.
        .target(name: "CuffRecording", dependencies: ["GATTHealth", "JSONEscaping"]),
        // systemd without libsystemd: sd_notify readiness and watchdog, the journal's native protocol.
        .target(name: "SystemdSupport", dependencies: ["CLinux", "TerminalEscaping", .product(name: "Logging", package: "swift-log")]),
        // libbluetooth, only where BlueZ's D-Bus API cannot answer (adapter checks in `cuffctl doctor`).
        .systemLibrary(name: "CBluetooth", pkgConfig: "bluez", providers: [.apt(["libbluetooth-dev"])]),
        // `cuffctl doctor`'s checks of the machine: kernel Bluetooth, adapters, rfkill, policy, store, clock.
        .target(name: "Diagnostics", dependencies: ["CBluetooth", "CLinux"]),
        // What `cuffctl decode` and Benchmarks/decode-benchmark take on the command line: a characteristic or a bare
        // scalar, a payload in hex, a device quirk.
        .target(name: "DecodeArguments", dependencies: ["GATTHealth", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // Linux calls Swift's Glibc module leaves out (they need _GNU_SOURCE).
        .target(name: "CLinux"),
        // A small file replaced whole and durably (temporary file, fsync, rename, fsync of the folder), the one way
        // cuffd, cuff-forward and cuffctl keep one; no Foundation, as cuff-forward links none.
        .target(name: "DurableFiles"),
        // The one JSON string escaper (RFC 8259 §7), of cuffctl's JSON and cuff-forward's MQTT payloads; no Foundation.
        .target(name: "JSONEscaping"),
        // The one escaper of strings from devices for a line a person reads (a terminal's control sequences shown as
        // `\x1b`): cuffctl's human output, cuffd's stderr and the journal's MESSAGE; no Foundation.
        .target(name: "TerminalEscaping"),
        // systemd-style configuration files (systemd.syntax(7)): sections, keys, typed values, errors naming the line;
        // cuffd.conf and cuff-forward's forward.conf both.
        .target(name: "INIConfiguration"),
        // The daemon's own parts: configuration, wiring of BlueZ → Gateway → store, control API.
        .target(
            name: "Daemon",
            dependencies: [
                "BlueZ", "CuffdVersion", "CuffRecording", "DBus", "DurableFiles", "GATTHealth", "Gateway", "HealthStore", "INIConfiguration", "ReadingColumns", "ReadingQueries", "SystemdSupport", "CLinux",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // `cuff-sim replay`: a scenario's cuffs played straight into Gateway sessions and a store, without Bluetooth
        // or D-Bus — kept out of `Daemon` and `cuffctl`, so that nothing shipped links the emulator.
        .target(
            name: "ScenarioReplay",
            dependencies: ["CuffSimulation", "Daemon", "Gateway", "GATTHealth", .product(name: "Logging", package: "swift-log")]
        ),
        // One thread's event loop as the main actor's and the default executor, so that an idle daemon is
        // woken by nothing (libdispatch's global queues tick a 1 s monitor once they have a worker).
        .target(
            name: "MainLoop",
            dependencies: [
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        // `cuffd`: the daemon — BlueZ → Gateway → HealthStore, its D-Bus control API, under systemd.
        // Linked for a small resident footprint (`smallResidentFootprint` above), with SQLite from its archive too.
        .executableTarget(
            name: "cuffd",
            dependencies: [
                "CuffdVersion", "Daemon", "DBus", "MainLoop", "SystemdSupport", "TerminalEscaping", "CDBusStatic",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["cuffd.order"],
            // The compiler's `async main` installs a `DefaultExecutorFactory` (MainLoop) only when it may assume
            // the Swift 6.2 runtime, which on Linux it does not without this (Swift 6.3; the runtime it links is 6.3).
            swiftSettings: [.unsafeFlags(["-Xfrontend", "-disable-availability-checking"])],
            linkerSettings: smallResidentFootprint(order: "Sources/cuffd/cuffd.order", archives: ["libstdc++", "libsqlite3", "libdbus-1"])
                // Read-only data in the read-only segment, where cuffd can drop the pages it read (link/readonly-rodata.ld).
                + [.unsafeFlags(["-Xlinker", "--script=\(Context.packageDirectory)/link/readonly-rodata.ld"], .when(configuration: .release))]
        ),
        // sd_listen_fds and sd_is_socket for the static libdbus-1 of cuffd and cuff-forward, which refers to them only
        // from code neither has a caller of (server-side socket activation); they abort (sd_listen_fds.c says why that
        // is sound).
        .target(name: "CDBusStatic"),
        // The LDAP and GSSAPI functions of libpq.a, for cuff-forward, which links libpq from its archive: LDAP look-ups
        // of connection parameters and Kerberos are refused in words (ldap.c and gssapi.c say how).
        .target(name: "CPostgreSQLStatic"),
        // libpq, PostgreSQL's C client library (docs/forwarding.md says why libpq and not postgres-nio).
        .systemLibrary(name: "CPostgreSQL", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // libmosquitto, Eclipse Mosquitto's MQTT client library, for cuff-forward's MQTT sink (docs/home-assistant.md).
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // libcurl, for cuff-forward's HTTP sink (docs/forwarding.md, "The HTTP sink"): opened with dlopen when an [HTTP]
        // section asks for it, not linked, so that the release cuff-forward maps none of what libcurl.so.4 loads.
        .target(name: "CCurl"),
        // OpenSSL's libcrypto, for the HTTP sink's HMAC-SHA256 signature: the OpenSSL libpq and libcurl load anyway.
        .systemLibrary(name: "COpenSSLCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // cuff-forward's parts: forward.conf, the change feed over D-Bus, the anchor file, the loop, and its sinks —
        // the central schema (PostgreSQL), the Home Assistant topics (MQTT), and an HTTP receiver (webhook, InfluxDB).
        .target(
            name: "Forwarding",
            dependencies: [
                "CCurl", "CLinux", "CMosquitto", "COpenSSLCrypto", "CPostgreSQL", "DBus", "DurableFiles", "ForwardingStatus", "GATTHealth", "INIConfiguration", "JSONEscaping",
                "ReadingColumns",
            ]
        ),
        // A page of readings as columns, as cuffd's `ReadingColumns` and `ChangeColumns` send it: built by cuffd, read by
        // cuffctl and cuff-forward.
        .target(name: "ReadingColumns", dependencies: ["DBus"]),
        // The reads of cuffd's control API over a HealthStore (filter, cursor, pages, its errors): cuffd answers with
        // them, and `cuffctl export --store` reads a store file with them, without linking the daemon.
        .target(name: "ReadingQueries", dependencies: ["BlueZ", "DBus", "GATTHealth", "Gateway", "HealthStore", "ReadingColumns"]),
        // cuff-forward's status file, written by it and read by `cuffctl forward status` (which so needs no libpq).
        .target(name: "ForwardingStatus", dependencies: ["DurableFiles"]),
        // `cuff-forward --config FILE [--bus ADDRESS] [--migrate]`: cuffd's readings into a central PostgreSQL, an MQTT
        // broker (Home Assistant), an HTTP receiver or InfluxDB (libcurl opened only then: CCurl), or several.
        // On MainLoop like cuffd, and for the same reason: nothing wakes it idle; linked as cuffd is, for its footprint,
        // libpq too from its archive (docs/forwarding.md, "Why libpq"); libmosquitto stays a shared object.
        .executableTarget(
            name: "cuff-forward",
            dependencies: ["Forwarding", "DBus", "MainLoop", "CDBusStatic", "CPostgreSQLStatic", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            exclude: ["cuff-forward.order"],
            swiftSettings: [.unsafeFlags(["-Xfrontend", "-disable-availability-checking"])],
            linkerSettings: smallResidentFootprint(order: "Sources/cuff-forward/cuff-forward.order", archives: ["libstdc++", "libdbus-1", "libpq"])
        ),
        .testTarget(
            name: "ForwardingTests",
            dependencies: [
                "DBus", "DBusTestSupport", "DurableFiles", "Forwarding", "ForwardingStatus", "INIConfiguration", "ReadingColumns",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // DurableFiles: modes, errors, leftovers, and a writer SIGKILLed mid-write (`durable-file-crash-writer`).
        .testTarget(name: "DurableFilesTests", dependencies: ["DBusTestSupport", "DurableFiles", "durable-file-crash-writer"]),
        // Child process for DurableFilesTests' crash test: replaces one file over and over, reports each step of each
        // replacement on stdout, and is SIGKILLed after a random number of steps.
        .executableTarget(name: "durable-file-crash-writer", dependencies: ["DurableFiles"], path: "Tests/durable-file-crash-writer"),
        // The emulated bluetoothd behind `cuff-sim`: scenario files and the cuffs they script.
        .target(name: "CuffSimulation", dependencies: ["BlueZ", "CuffRecording", "DBus", "GATTHealth"]),
        // `cuff-sim --scenario FILE [--bus ADDRESS]`: owns org.bluez on a bus with scripted cuffs; `cuff-sim replay
        // SCENARIO --store PATH` plays them into a store without Bluetooth. Not shipped.
        .executableTarget(
            name: "cuff-sim",
            dependencies: [
                "CuffdVersion", "CuffSimulation", "Daemon", "DBus", "Gateway", "HealthStore", "ScenarioReplay", "SystemdSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "GATTHealthTests",
            dependencies: [
                "GATTHealth",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "cuffctlTests",
            dependencies: ["cuffctl", "DBusTestSupport", "ForwardingStatus", "HealthStore", "ReadingColumns", "TerminalEscaping", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "CuffSimulationTests", dependencies: ["CuffSimulation", "DBus", "DBusTestSupport"]),
        .testTarget(name: "GatewayTests", dependencies: ["Gateway", "GatewayTestSupport", "BlueZ", "CuffSimulation", "DBus", "DBusTestSupport"]),
        // The Gateway in-process and in virtual time: an in-memory Bluetooth central, a clock tests advance
        // (docs/gateway.md, "Seams").
        .target(
            name: "GatewayTestSupport", dependencies: ["BlueZ", "CuffRecording", "CuffSimulation", "DBus", "DBusTestSupport", "Gateway", "GATTHealth"],
            path: "Tests/GatewayTestSupport"),
        .testTarget(name: "BlueZTests", dependencies: ["BlueZ", "CuffSimulation", "DBus", "DBusTestSupport"]),
        .testTarget(name: "DBusTests", dependencies: ["CLinux", "DBus", "DBusTestSupport"]),
        // Our D-Bus layer against third-party peers: busctl, gdbus, python dbus-fast (Tests/Interop).
        .testTarget(name: "InteropTests", dependencies: ["DBus", "DBusTestSupport"]),
        // A private dbus-daemon per test, and helpers to run third-party peers (busctl, dbus-fast).
        .target(name: "DBusTestSupport", dependencies: ["CLinux", "DBus"], path: "Tests/DBusTestSupport"),
        .testTarget(name: "SystemdSupportTests", dependencies: ["SystemdSupport", "DBusTestSupport"]),
        // cuff-sim, cuffd and cuffctl as processes on a private bus: the user story end to end.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "BenchmarkSupport", "CuffdVersion", "DBus", "DBusTestSupport", "CuffSimulation", "HealthStore", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "DaemonTests",
            dependencies: [
                "BlueZ", "Daemon", "DBus", "Gateway", "GatewayTestSupport", "GATTHealth", "HealthStore", "CuffSimulation", "ScenarioReplay", "ReadingColumns", "ReadingQueries", "MainLoop",
                .product(name: "Logging", package: "swift-log"), .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // The shipped files, and what the shipped programs link (no emulator, benchmark or test code).
        .testTarget(name: "InstallationTests", dependencies: ["DBusTestSupport"]),
        // The benchmark programs' own checks, run as processes: the test bundle links none of them, so that the
        // allocation counter of decode-benchmark interposes no test's malloc.
        .testTarget(name: "BenchmarkTests", dependencies: ["DBusTestSupport"]),
        .testTarget(name: "DiagnosticsTests", dependencies: ["Diagnostics"]),
        .testTarget(name: "MainLoopTests", dependencies: ["MainLoop", "DBusTestSupport"]),
        .testTarget(name: "BroadcastingTests", dependencies: ["Broadcasting"]),
        // HealthKit-like typed health store on SQLite through GRDB.
        // SQL lives only in Sources/HealthStore/SQLite/; GRDBSQLite is SQLite's C API, used there for
        // the per-row statements of a write (SQLiteRawStatement.swift).
        .target(
            name: "HealthStore",
            dependencies: ["Broadcasting", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),
        // Child process for the crash-safety test: writes readings, reports each commit on
        // stdout, and is SIGKILLed by HealthStoreTests at random points.
        .executableTarget(
            name: "store-crash-writer",
            dependencies: ["HealthStore"],
            path: "Tests/store-crash-writer"
        ),
        // Writes the store a release leaves behind, committed as a fixture for StoreUpgradeTests (its header says how).
        .executableTarget(
            name: "store-fixture-writer",
            dependencies: ["CuffdVersion", "HealthStore"],
            path: "Tests/store-fixture-writer"
        ),
        // Figures for the store: ingest rate, commit latency, last-100 and daily-statistics query times.
        // Run: swift run -c release store-benchmark
        .executableTarget(
            name: "store-benchmark",
            dependencies: ["HealthStore"],
            path: "Benchmarks/store-benchmark"
        ),
        // Figures for the D-Bus layer: call round trips and signal throughput against dbus-fast and busctl.
        // Run: swift run -c release dbus-benchmark [CALLS] [SIGNALS]
        // cuffd's and cuffctl's peak memory reading a small and a large store through Readings' pages.
        .executableTarget(
            name: "readings-benchmark",
            dependencies: ["BenchmarkSupport", "DBusTestSupport", "HealthStore"],
            path: "Benchmarks/readings-benchmark"
        ),
        // What the benchmarks share: a synthetic store, cuffd on it beside cuff-sim, a process's figures.
        .target(name: "BenchmarkSupport", dependencies: ["DBusTestSupport", "HealthStore"], path: "Benchmarks/BenchmarkSupport"),
        // cuff-forward catching up a backlog into an empty central table, beside psql's COPY of the same rows.
        // Run (root): swift build -c release && swift run -c release forward-benchmark [--heart-rate] [READINGS]
        .executableTarget(
            name: "forward-benchmark",
            dependencies: ["BenchmarkSupport", "BlueZ", "Daemon", "DBusTestSupport", "Gateway", "HealthStore"],
            path: "Benchmarks/forward-benchmark"
        ),
        // cuff-forward's PostgreSQL client library side by side: libpq through its wrapper and postgres-nio, each in
        // Benchmarks/postgres-client-comparison (a package of its own), built clean, then idle on a TLS connection.
        // Run (root): swift build -c release --product client-library-benchmark && .build/release/client-library-benchmark
        .executableTarget(
            name: "client-library-benchmark",
            dependencies: ["BenchmarkSupport", "DBusTestSupport"],
            path: "Benchmarks/client-library-benchmark"
        ),
        // Many gateways at once into one PostgreSQL: a backlog caught up by all, then commit → visible latency at 1 reading/s each.
        // Run (root): swift build -c release && .build/release/gateways-benchmark [GATEWAYS] [BACKLOG] [READINGS]
        .executableTarget(
            name: "gateways-benchmark",
            dependencies: ["BenchmarkSupport", "CPostgreSQL", "DBusTestSupport", "HealthStore"],
            path: "Benchmarks/gateways-benchmark"
        ),
        // cuff-forward's MQTT sink catching up a backlog into a Mosquitto, beside mosquitto_pub publishing the same payloads;
        // and a reading's latency from cuffd to a subscriber at a steady rate.
        // Run (root): swift build -c release && .build/release/mqtt-benchmark [backlog] [READINGS] | latency [READINGS] [RATE]
        .executableTarget(
            name: "mqtt-benchmark",
            dependencies: ["BenchmarkSupport", "BlueZ", "Daemon", "DBus", "DBusTestSupport", "Gateway", "HealthStore"],
            path: "Benchmarks/mqtt-benchmark"
        ),
        // cuff-forward's HTTP sink writing a backlog into an InfluxDB 1.x, beside curl posting the same line protocol.
        // Run (root): swift build -c release && .build/release/influx-benchmark [READINGS]
        .executableTarget(
            name: "influx-benchmark",
            dependencies: ["BenchmarkSupport", "DBusTestSupport"],
            path: "Benchmarks/influx-benchmark"
        ),
        // GATTHealth's decoders, ns and heap allocations per packet; Benchmarks/compare-decode runs it beside the C reference.
        // Run: swift run -c release decode-benchmark --characteristic 2A35 --hex "…" [--count N] [--json]
        .executableTarget(
            name: "decode-benchmark",
            dependencies: ["CAllocationCounter", "CBenchmarkSink", "DecodeArguments", "GATTHealth", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Benchmarks/decode-benchmark"
        ),
        // Counts heap allocations for decode-benchmark: it defines malloc, so no shipped program may link it.
        .target(name: "CAllocationCounter", path: "Benchmarks/CAllocationCounter"),
        // The opaque sink decode-benchmark hands each decoded value to, as the C reference's harness does.
        .target(name: "CBenchmarkSink", path: "Benchmarks/CBenchmarkSink"),
        // cuffd on a million readings, a cuff indicating every second, and clients with and without grants hammering
        // Statistics and Readings: indication → committed with and without them (docs/dbus-api.md, "Reads").
        // Run (root): swift build -c release && .build/release/reads-benchmark [READINGS] [CLIENTS] [CALLS_IN_FLIGHT] [MEASURED]
        .executableTarget(
            name: "reads-benchmark",
            dependencies: ["BenchmarkSupport", "CuffSimulation", "DBus", "DBusTestSupport"],
            path: "Benchmarks/reads-benchmark"
        ),
        .executableTarget(
            name: "dbus-benchmark",
            dependencies: ["DBus", "DBusTestSupport"],
            path: "Benchmarks/dbus-benchmark"
        ),
        // Figures for the daemon: cuffd's start → READY, idle RSS and wakeups, indication → committed latency.
        // Run: make && swift run -c release daemon-benchmark [CUFFD_BINARY] [READINGS]
        .executableTarget(
            name: "daemon-benchmark",
            dependencies: ["BenchmarkSupport", "BlueZ", "CuffSimulation", "DBus", "DBusTestSupport", "Gateway", "HealthStore", "Daemon", "MainLoop"],
            path: "Benchmarks/daemon-benchmark"
        ),
        .testTarget(
            name: "HealthStoreTests",
            dependencies: ["HealthStore", "DBusTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            // Stores of earlier releases, read by path (StoreUpgradeTests).
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
