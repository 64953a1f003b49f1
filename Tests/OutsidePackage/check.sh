#!/usr/bin/env bash
# Builds and runs an app package that depends on tabstore by path and declares targets with
# the generic names an app may well have (Store, CLI, Model, CSQLite, Bench, ...), in Swift 6
# mode (complete concurrency checking), as an app developer's trial was. SwiftPM refuses a
# graph where two packages declare the same target name, so this passes only while every
# tabstore target name is owned by the project. A second app uses the PostgreSQL product;
# the first, which embeds only SQLite, must not link libpq nor even hold the name of the
# library file (TabStorePostgres loads it at run time; it is never linked). Run by .ci/run.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
app="$(mktemp -d)"
# A path dependency's identity is its folder's name; the app names it "tabstore"
# (.package(name:path:)), as the README shows, so it builds whatever the clone is called.
trap 'rm -rf "$app"' EXIT

mkdir -p "$app/Sources"
for name in Store CLI Model CSQLite Bench BenchHello TestSupport JSON EmbedMigrations Postgres CLibPQ LibPQ Main PostgresMain; do
    mkdir -p "$app/Sources/$name"
    printf 'public let %sName = "%s"\n' "$name" "$name" > "$app/Sources/$name/$name.swift"
done
mkdir -p "$app/Sources/App"
cat > "$app/Sources/App/main.swift" <<'SWIFT'
import Foundation
import TabStoreKit
import TabStoreFoundation
import Store
import CLI
import Model

// Swift 6 mode (the manifest's tools version): complete concurrency checking.
let store = try TabStore(url: URL(fileURLWithPath: CommandLine.arguments[1]))
try store.add(["Home", "Reviews"], to: "main", creatingSet: true)
let change = try store.select(.title("Reviews"), in: "main")
print("\(StoreName) \(CLIName): selected \(change.selectedIndex) in \(change.setName)")

@MainActor func tapHome() async throws {
    let bar = TabBarModel(store: store, setName: "main")
    let selected = try await bar.select(bar.tabs[0].id).result
    print("\(ModelName): \(selected.selectedTab.title) \(bar.lastSelectedIndex)")
    do throws(TabStoreError) {
        for try await _ in store.observe("main") { try await store.select(9, in: "main") }
    } catch let error where error.code == .indexOutOfRange {
        print(error.localizedDescription)
    } catch {
        print("another error: \(error)")
    }
}
try await tapHome()
SWIFT
mkdir -p "$app/Sources/KitOnlyApp"
cat > "$app/Sources/KitOnlyApp/main.swift" <<'SWIFT'
import TabStoreKit

// Only TabStoreKit: the app must not link Foundation (nor ICU), which doubles a start.
let store = try TabStore(path: CommandLine.arguments[1])
try store.add(["Home", "Reviews"], to: "main", creatingSet: true)
print(try store.tabSet(named: "main").tabs.map(\.title))
SWIFT
mkdir -p "$app/Sources/ServerApp"
cat > "$app/Sources/ServerApp/main.swift" <<'SWIFT'
import TabStoreKit
import TabStorePostgres
import Postgres

// Nothing listens on port 1: the error proves libpq was loaded and asked to connect.
do {
    _ = try TabStore(postgresURL: "postgresql://app:secret@127.0.0.1:1/tabs")
} catch {
    print("\(PostgresName): \(error.isDatabaseProblem) \(error)")
}
SWIFT
cat > "$app/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let generic = ["Store", "CLI", "Model", "CSQLite", "Bench", "BenchHello", "TestSupport", "JSON", "EmbedMigrations", "Postgres", "CLibPQ", "LibPQ", "Main", "PostgresMain"]
let package = Package(
    name: "outside-app",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "tabstore", path: "$root")],
    targets: generic.map { .target(name: \$0) } + [
        .executableTarget(
            name: "App",
            dependencies: [.product(name: "TabStoreKit", package: "tabstore"), .product(name: "TabStoreFoundation", package: "tabstore")]
                + generic.map { .target(name: \$0) }
        ),
        .executableTarget(name: "KitOnlyApp", dependencies: [.product(name: "TabStoreKit", package: "tabstore")]),
        .executableTarget(
            name: "ServerApp",
            dependencies: [.product(name: "TabStorePostgres", package: "tabstore"), .target(name: "Postgres")]
        ),
    ]
)
SWIFT
cd "$app"
swift build 2>&1 | tail -n 3
out="$(swift run -q App "$app/Library/tabs.sqlite")"
echo "$out"
expected='Store CLI: selected 1 in main
Model: Home 0
index 9 is out of range for set "main" (valid: 0...1 or -2...-1)'
[ "$out" = "$expected" ] || { echo "outside package: unexpected output" >&2; exit 1; }
if grep -q "libpq.so" "$(swift build --show-bin-path)/App"; then
    echo "outside package: an app embedding only TabStoreKit mentions libpq" >&2
    exit 1
fi
kit="$(swift run -q KitOnlyApp "$app/Library/kit.sqlite")"
[ "$kit" = '["Home", "Reviews"]' ] || { echo "outside package: unexpected KitOnlyApp output: $kit" >&2; exit 1; }
if readelf -d "$(swift build --show-bin-path)/KitOnlyApp" | grep -E "NEEDED.*(libFoundation|lib_Foundation|libicu)"; then
    echo "outside package: an app importing only TabStoreKit links Foundation" >&2
    exit 1
fi
if command -v ldconfig >/dev/null && ldconfig -p | grep -q "libpq.so.5 "; then
    server="$(swift run -q ServerApp)"
    echo "$server"
    expected='Postgres: true cannot connect to postgresql://app@127.0.0.1:1/tabs: connection to server at "127.0.0.1", port 1 failed: Connection refused (tried again until the 5 s failover window closed)'
    [ "$server" = "$expected" ] || { echo "outside package: unexpected server app output" >&2; exit 1; }
fi
