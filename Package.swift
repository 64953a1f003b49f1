// swift-tools-version:6.0
import PackageDescription

// Every target and module name starts with "TabStore": SwiftPM needs names unique across a
// whole package graph, so an app with its own `Store`, `CLI` or `CSQLite` can still depend
// on this package. The folders keep their short names through `path:`.
// TABSTORE_FUZZER=<path of libclang_rt.fuzzer_no_main> builds the library, the CLI and
// Tests/Fuzz with libFuzzer's coverage and AddressSanitizer (Tests/Fuzz/run.sh). Set on
// these targets only: the build tool that embeds migrations stays a plain executable.
let fuzzerLibrary = Context.environment["TABSTORE_FUZZER"]
let fuzzing = fuzzerLibrary != nil
let fuzzSettings: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address"]), .define("TABSTORE_FUZZING")] : []

let package = Package(
    name: "tabstore",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        // What an app embeds: `import TabStoreKit`. It links no Foundation (nor ICU): on Linux
        // that halves a small app's start. `TabStoreFoundation` is its own product (URLs,
        // UUIDs, LocalizedError), so that only an app that asks for it links Foundation.
        .library(name: "TabStoreKit", targets: ["TabStoreKit"]),
        .library(name: "TabStoreFoundation", targets: ["TabStoreFoundation"]),
        // The command: fully static on Linux, it hands postgresql:// URLs to tabstore-postgres.
        .executable(name: "tabstore", targets: ["TabStoreMain"]),
        // The same command with the PostgreSQL backend (it can load libpq); install it beside tabstore.
        .executable(name: "tabstore-postgres", targets: ["TabStorePostgresMain"]),
        // The PostgreSQL backend: `import TabStorePostgres`. libpq is loaded at run time.
        .library(name: "TabStorePostgres", targets: ["TabStorePostgres"]),
    ],
    targets: [
        // The system libsqlite3 (Debian: libsqlite3-dev; Apple platforms: the SDK's).
        .systemLibrary(
            name: "TabStoreSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Turns migrations/*.sql into Swift source so a copied binary needs no resource folder.
        // It also applies the SQLite migrations in memory, to embed the schema each version makes.
        .executableTarget(name: "TabStoreEmbedMigrationsTool", dependencies: ["TabStoreSQLite"], path: "Sources/EmbedMigrationsTool"),
        .plugin(
            name: "TabStoreEmbedMigrations",
            capability: .buildTool(),
            dependencies: ["TabStoreEmbedMigrationsTool"],
            path: "Plugins/EmbedMigrations"
        ),
        .target(
            name: "TabStoreKit",
            dependencies: ["TabStoreSQLite"],
            path: "Sources/Store",
            swiftSettings: fuzzSettings,
            plugins: ["TabStoreEmbedMigrations"]
        ),
        // Foundation's part of the library (URLs, UUIDs, LocalizedError), kept out of
        // TabStoreKit so that the CLI, which links TabStoreKit, starts without Foundation.
        .target(name: "TabStoreFoundation", dependencies: ["TabStoreKit"], path: "Sources/FoundationBridge"),
        // Our own declarations of the libpq functions we use, found with dlopen at run time:
        // nothing links libpq, so no libpq (nor its header) is needed to build.
        .target(
            name: "TabStoreLibPQ",
            path: "Sources/CLibPQ",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        // The PostgreSQL backend; its schema is migrations/postgresql/*.sql.
        .target(
            name: "TabStorePostgres",
            dependencies: ["TabStoreKit", "TabStoreLibPQ"],
            path: "Sources/Postgres",
            plugins: ["TabStoreEmbedMigrations"]
        ),
        // The argument vector as the system passed it: a static executable's Swift runtime
        // reads /proc/self/cmdline instead, which fails when no descriptor is free.
        .target(name: "TabStoreProcessArguments", path: "Sources/CProcessArguments"),
        // Every command, its arguments and output: all of the CLI but its main. It does not
        // depend on TabStorePostgres: each executable's main says how server URLs are served.
        .target(name: "TabStoreCLI", dependencies: ["TabStoreKit", "TabStoreProcessArguments"], path: "Sources/CLI", swiftSettings: fuzzSettings),
        // `tabstore`. Start-up is the product: on Linux the release binary is fully static (no
        // dynamic loader, no symbol binding), which also means it cannot load libpq; a
        // postgresql:// URL is handed to tabstore-postgres. gold places the code everyday
        // commands run side by side (StaticLinking/tabstore-startup.order, made by
        // make-startup-order.sh), so a run faults in fewer pages. docs/Performance.md, "Why two executables".
        .executableTarget(
            name: "TabStoreMain",
            dependencies: ["TabStoreCLI"],
            path: "Sources/Main",
            linkerSettings: [.unsafeFlags(["-static-executable", "-use-ld=gold", "-Xlinker", "--section-ordering-file=" + Context.packageDirectory + "/StaticLinking/tabstore-startup.order"], .when(platforms: [.linux], configuration: .release))]
        ),
        // `tabstore-postgres`: the same commands, and PostgreSQL servers. It must dlopen libpq,
        // so the release binary links the Swift runtime, libstdc++ and SQLite statically (the
        // linker scripts in StaticLinking/ turn -lsqlite3 and -lstdc++ into their .a) and
        // glibc dynamically, not position-independent (no start-up relocations). It exports
        // none of its own symbols: --no-export-dynamic comes after the -export-dynamic of
        // -static-stdlib and overrides it (1,240 dynamic symbols to 329, 0.3 MiB less).
        .executableTarget(
            name: "TabStorePostgresMain",
            dependencies: ["TabStoreCLI", "TabStorePostgres"],
            path: "Sources/PostgresMain",
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-Xclang-linker", "-static-libgcc", "-Xclang-linker", "-no-pie", "-L" + Context.packageDirectory + "/StaticLinking", "-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux], configuration: .release))]
        ),
        // The benchmark and its hello-world floor are not products: embedders never build them.
        // `swift build -c release && swift run -c release TabStoreBench`.
        .executableTarget(
            // The tests' throwaway PostgreSQL server (TabStoreTestSupport) serves the postgres rows too.
            name: "TabStoreBench", dependencies: ["TabStoreKit", "TabStoreSQLite", "TabStorePostgres", "TabStoreTestSupport"],
            path: "Sources/Bench"
        ),
        // A bare Swift hello-world: the floor for a Swift process's start time and memory.
        .executableTarget(name: "TabStoreBenchHello", path: "Sources/BenchHello"),
        // An app that imports only TabStoreKit, for the bench's app rows: its first value at
        // launch, and an idle observing process beside a bare one (Sources/Bench/AppRows.swift).
        .executableTarget(name: "TabStoreBenchApp", dependencies: ["TabStoreKit"], path: "Sources/BenchApp"),
        // The sample app: a tab bar app in a terminal, on TabStoreKit as an app uses it. Not a
        // product; CI builds it and drives it (Tests/SampleApp/check.py).
        .executableTarget(
            name: "TabStoreSampleApp", dependencies: ["TabStoreKit", "TabStoreFoundation"], path: "Samples/TabBarApp"
        ),
        // Fuzz targets for an import document, a command line and sync: Tests/Fuzz/run.sh builds them
        // with libFuzzer; a plain build replays files through the same checks.
        .executableTarget(
            name: "TabStoreFuzz", dependencies: ["TabStoreCLI", "TabStoreKit", "TabStoreFoundation", "TabStoreSQLite", "TabStoreTestSupport"],
            path: "Tests/Fuzz",
            exclude: ["Corpus", "run.sh"],
            swiftSettings: fuzzSettings, linkerSettings: fuzzerLibrary.map { [.unsafeFlags(["-sanitize=address", "-Xlinker", $0, "-lstdc++"])] } ?? []
        ),
        // What both test targets use: a seeded generator and tmpfs mounts.
        // TabStoreKit only for the lock a ThreadSanitizer build uses (ThreadSanitizedMutex).
        .target(name: "TabStoreTestSupport", dependencies: ["TabStoreKit"], path: "Tests/TestSupport"),
        .testTarget(
            name: "TabStoreKitTests",
            dependencies: ["TabStoreKit", "TabStoreFoundation", "TabStorePostgres", "TabStoreSQLite", "TabStoreTestSupport"],
            path: "Tests/StoreTests"
        ),
        .testTarget(
            name: "TabStoreCLITests",
            // The end-to-end tests run both executables: depending on them has SwiftPM build them.
            dependencies: [
                "TabStoreKit", "TabStoreCLI", "TabStoreMain", "TabStorePostgresMain", "TabStoreSQLite", "TabStoreTestSupport",
                "TabStorePostgres",
            ],
            path: "Tests/CLITests",
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "TabStorePostgresTests",
            dependencies: ["TabStorePostgres", "TabStoreKit", "TabStoreTestSupport"],
            path: "Tests/PostgresTests"
        ),
    ]
)
