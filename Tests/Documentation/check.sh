#!/usr/bin/env bash
# Renders TabStoreKit's documentation as Scripts/build-documentation.sh does for a reader,
# into a folder of its own, and fails on any docc warning: a broken symbol or article link,
# an ambiguous one (overloads share names), an undocumented parameter.
# Run by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/../.."
site="$(mktemp -d)"
trap 'rm -rf "$site"' EXIT
bash Scripts/build-documentation.sh "$site/documentation-site" >/dev/null
echo "documentation: no warnings"
