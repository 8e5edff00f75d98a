// swift-tools-version: 6.1
import PackageDescription

// The same idle-relevant work done with each PostgreSQL client library cuff-forward could use: Debian's libpq through
// cuff-forward's own wrapper (its files, linked here, not copied) and vapor/postgres-nio. A package of its own, so that
// the project's build never depends on postgres-nio. `compare` builds, runs and measures both (README.md).
let package = Package(
    name: "postgres-client-comparison",
    dependencies: [
        .package(url: "https://github.com/vapor/postgres-nio.git", exact: "1.33.2"),
    ],
    targets: [
        // What both programs do: the table, the upsert, a batch's columns, the signals that drive them.
        .target(name: "Workload"),
        // cuff-forward's module map for libpq and the one helper its wrapper uses (symbolic links into Sources/).
        .systemLibrary(name: "CPostgreSQL", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "INIConfiguration"),
        // cuff-forward's PostgresConnection, PostgresError, PostgresParameter and PostgresArray (symbolic links).
        .executableTarget(name: "libpq-idle", dependencies: ["CPostgreSQL", "INIConfiguration", "Workload"]),
        .executableTarget(
            name: "postgres-nio-idle",
            dependencies: ["Workload", .product(name: "PostgresNIO", package: "postgres-nio")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
