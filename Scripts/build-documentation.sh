#!/usr/bin/env bash
# Renders TabStoreKit's guide and reference (the DocC catalog Sources/Store/TabStoreKit.docc
# with the library's symbols) to a static site, and fails on any docc warning: a broken
# link, an ambiguous one (sync and async twins share names), an undocumented parameter.
# Tests/Documentation/check.sh runs it, so CI fails on the same warnings.
#
#   bash Scripts/build-documentation.sh [OUTPUT]    OUTPUT defaults to .build/documentation-site
#
# The site's pages load their content with JavaScript from the site's own folder, which a
# browser refuses from file:// URLs: serve the folder (the script prints how).
set -euo pipefail
cd "$(dirname "$0")/.."
output="${1:-.build/documentation-site}"
# A build folder of its own, so this never waits for (or invalidates) another build. The
# compiler writes symbol graphs only when it compiles the module, so TabStoreKit's own
# objects and the graphs are removed first: the graphs are always today's.
build=.build/documentation-build
graphs="$PWD/$build/symbol-graphs"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# Quiet unless it fails: then what the tool said, warnings and errors, goes to stderr.
quietly() { "$@" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }; }
rm -rf "$graphs" "$build/debug/TabStoreKit.build" "$build/debug/TabStoreFoundation.build"
# TabStoreFoundation with it: its readers of sync messages and URL and UUID conveniences
# extend TabStoreKit's types, and are shown on their pages.
quietly swift build --target TabStoreFoundation --scratch-path "$build" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs"
# Only the two libraries' symbols: the build also compiles the migrations' embedding tool.
find "$graphs" -name '*.symbols.json' ! -name 'TabStoreKit*' ! -name 'TabStoreFoundation*' -delete
rm -rf "$output"
quietly docc convert Sources/Store/TabStoreKit.docc \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name TabStoreKit --fallback-bundle-identifier tabstore.TabStoreKit \
    --transform-for-static-hosting \
    --output-path "$output" --analyze --warnings-as-errors
echo "documentation: no warnings; the site is in $output"
echo "to read it: python3 -m http.server --directory $output 8000, then open http://localhost:8000/documentation/tabstorekit/"
