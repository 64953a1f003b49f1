#!/usr/bin/env bash
# The CLI is written against TabStoreKit's public API, as an app is: its sources must
# type-check as a module of another package, where `package` declarations are out of
# reach. Each error names a package-only declaration the CLI still uses.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --target TabStoreCLI >/dev/null
bin=$(swift build --show-bin-path)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! swiftc -typecheck -parse-as-library -swift-version 6 -continue-building-after-errors \
    -module-name TabStoreCLI -package-name not_tabstore \
    $(find Sources/CLI -name '*.swift' | sort) \
    -I "$bin/Modules" -module-cache-path "$bin/ModuleCache" \
    -Xcc -fmodule-map-file=Sources/CSQLite/module.modulemap \
    -Xcc -fmodule-map-file="$bin/TabStoreProcessArguments.build/module.modulemap" \
    -Xcc -I -Xcc Sources/CProcessArguments/include >"$log" 2>&1; then
    grep 'error:' "$log" >&2 || cat "$log" >&2
    echo "check-cli: the CLI uses TabStoreKit declarations that are not public (above)" >&2
    exit 1
fi
echo "check-cli: the CLI type-checks against TabStoreKit's public API alone"
