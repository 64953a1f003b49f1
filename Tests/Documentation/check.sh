#!/usr/bin/env bash
# Builds TabStoreKit's documentation with docc and fails on any warning: a broken symbol
# link, an ambiguous one (sync and async twins share names), or an undocumented parameter.
# Run by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/../.."
graphs="$(mktemp -d)"
trap 'rm -rf "$graphs"' EXIT
# A fresh build folder: an up-to-date target emits no symbol graph.
swift build --target TabStoreKit --scratch-path "$graphs/build" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs/symbols" >/dev/null
docc convert Sources/Store/TabStoreKit.docc \
    --additional-symbol-graph-dir "$graphs/symbols" \
    --fallback-display-name TabStoreKit --fallback-bundle-identifier tabstore.TabStoreKit \
    --output-path "$graphs/archive" --analyze --warnings-as-errors
echo "documentation: no warnings"
