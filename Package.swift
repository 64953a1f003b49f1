// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "tabstore",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "Store", targets: ["Store"]),
        .executable(name: "tabstore", targets: ["CLI"]),
        .executable(name: "tabstore-bench", targets: ["Bench"]),
        .executable(name: "bench-hello", targets: ["BenchHello"]),
    ],
    targets: [
        // The system libsqlite3 (Debian: libsqlite3-dev; Apple platforms: the SDK's).
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Turns migrations/*.sql into Swift source so a copied binary needs no resource folder.
        .executableTarget(name: "EmbedMigrationsTool"),
        .plugin(
            name: "EmbedMigrations",
            capability: .buildTool(),
            dependencies: ["EmbedMigrationsTool"]
        ),
        .target(
            name: "Store",
            dependencies: ["CSQLite"],
            plugins: ["EmbedMigrations"]
        ),
        .executableTarget(
            name: "CLI",
            dependencies: ["Store"],
            // Start-up is the product: a fully static release binary skips the dynamic
            // loader's symbol binding, two thirds of a dynamically linked run (issue 5).
            linkerSettings: [.unsafeFlags(["-static-executable"], .when(platforms: [.linux], configuration: .release))]
        ),
        // Issue 5's comparisons in one run: `swift build -c release && swift run -c release tabstore-bench`.
        .executableTarget(name: "Bench", dependencies: ["Store", "CSQLite"]),
        // A bare Swift hello-world: the floor for a Swift process's start time and memory.
        .executableTarget(name: "BenchHello"),
        // What both test targets use: a seeded generator and tmpfs mounts.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "StoreTests", dependencies: ["Store", "CSQLite", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["Store", "CLI", "CSQLite", "TestSupport"], exclude: ["Golden"]),
    ]
)
