#!/usr/bin/env bash
# Runs each fuzz target (Tests/Fuzz/FuzzTargets.swift) under libFuzzer and AddressSanitizer
# for a bounded time, starting from the seeds in Tests/Fuzz/Corpus. A broken property, a
# trap or a memory error fails the run and leaves the input that caused it in the folder
# printed at the end (replay it: TABSTORE_FUZZ_TARGET=... swift run TabStoreFuzz FILE).
# Usage: Tests/Fuzz/run.sh [seconds per target, default 60]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}

swiftc=$(readlink -f "$(command -v swiftc)")
fuzzer=$(ls "$(dirname "$swiftc")"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a | sort -V | tail -n 1)
TABSTORE_FUZZER=$fuzzer swift build --product TabStoreFuzz --scratch-path .build/fuzz
binary=$PWD/.build/fuzz/debug/TabStoreFuzz

# The command-line target writes wherever a generated --output or backup path points: it
# runs as nobody, in a folder of its own, with only a copy of the seeds.
work=$(mktemp -d /tmp/tabstore-fuzz-run.XXXXXX)
cp -R Tests/Fuzz/Corpus "$work/corpus"
chown -R nobody "$work"
failed=()
for target in document command-line damaged-file sync-message sync-server sync-log; do
    mkdir -p "$work/found/$target"
    chown nobody "$work/found/$target"
    echo "tabstore-fuzz: $target for ${seconds}s"
    if ! (cd "$work" && runuser -u nobody -- env TABSTORE_FUZZ_TARGET="$target" ASAN_OPTIONS=detect_leaks=0 \
        "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix="$work/found/$target/" "corpus/$target" >"$work/$target.log" 2>&1); then
        tail -n 30 "$work/$target.log"
        failed+=("$target")
    else
        grep -E '^stat::number_of_executed_units|^stat::new_units_added' "$work/$target.log" | tr '\n' ' '
        echo
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "tabstore-fuzz: failed: ${failed[*]}; inputs in $work/found" >&2
    exit 1
fi
rm -rf "$work"
echo "tabstore-fuzz: no failure"
