// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "cuffd",
    products: [
        .library(name: "GATTHealth", targets: ["GATTHealth"]),
        .executable(name: "cuffctl", targets: ["cuffctl"]),
        .library(name: "HealthStore", targets: ["HealthStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/ordo-one/malloc-interposer.git", from: "1.6.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: [
        // Pure codecs for the Blood Pressure, Heart Rate, time and Device Information GATT
        // characteristics. No I/O, no Foundation, no allocation on the decode path.
        .target(name: "GATTHealth"),
        .executableTarget(
            name: "cuffctl",
            dependencies: [
                "GATTHealth",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
        .testTarget(
            name: "GATTHealthTests",
            dependencies: [
                "GATTHealth",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "cuffctlTests", dependencies: ["cuffctl"]),
        // HealthKit-like typed health store (issue 5) on SQLite through GRDB.
        // SQL lives only in Sources/HealthStore/SQLite/.
        .target(
            name: "HealthStore",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")]
        ),
        // Child process for the crash-safety test: writes readings, reports each commit on
        // stdout, and is SIGKILLed by HealthStoreTests at random points.
        .executableTarget(
            name: "store-crash-writer",
            dependencies: ["HealthStore"],
            path: "Tests/store-crash-writer"
        ),
        // Figures for issue 5: ingest rate, commit latency, last-100 and daily-statistics query times.
        // Run: swift run -c release store-benchmark
        .executableTarget(
            name: "store-benchmark",
            dependencies: ["HealthStore"],
            path: "Benchmarks/store-benchmark"
        ),
        .testTarget(
            name: "HealthStoreTests",
            dependencies: ["HealthStore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
