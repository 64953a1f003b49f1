#!/usr/bin/env bash
# Writes StaticLinking/tabstore-startup.order: the code sections a release `tabstore` runs
# for everyday commands on a file, for the linker (gold's --section-ordering-file) to put
# side by side. A short command then maps fewer pages of the 9 MiB of code: it spends much
# of its life in the kernel faulting them in. Sections are named after their function
# (.text.<symbol>); the Swift runtime and standard library come in one section per
# function, so that is where the order counts. A name that no longer exists is skipped by
# the linker: a stale file costs speed, never correctness. Rerun after a toolchain update
# or a large change to what a command runs; needs valgrind:
#   swift build -c release && bash StaticLinking/make-startup-order.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
binary="${1:-$root/.build/release/tabstore}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
db="$work/tabs.sqlite"

commands=(
    "--version"
    "help select"
    "add main Home Reviews Photos"
    "select main 1"
    "select main Reviews"
    "select main 0 --json"
    "restore main"
    "list"
    "list main"
    "show main"
    "move main Photos 0"
    "rename main Photos Pictures"
    "remove main Pictures"
    "reopen main"
    "history main"
    "export main"
    "info"
    "select nope 1"
)
index=0
for command in "${commands[@]}"; do
    index=$((index + 1))
    # shellcheck disable=SC2086 # each command is a list of words
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/run.$index" \
        "$binary" --db "$db" $command >/dev/null 2>&1 || true
done

# Every function any run entered, once, in the order the runs first name them.
python3 - "$work" "$root/StaticLinking/tabstore-startup.order" <<'PY'
import glob, re, sys
work, output = sys.argv[1], sys.argv[2]
seen, order = set(), []
for path in sorted(glob.glob(work + "/run.*"), key=lambda p: int(p.rsplit(".", 1)[1])):
    names = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        match = re.match(r"^c?fn=\((\d+)\)(?: (.*))?$", line.strip())
        if not match:
            continue
        number, name = match.groups()
        if name:
            names[number] = name
        # callgrind names a recursive call's level with a suffix (swift_once'2): the
        # function's own section has the plain name.
        name = re.sub(r"'\d+$", "", names.get(number) or "")
        # Not sections: addresses without a symbol, and valgrind's "(below main)".
        if name and not name.startswith(("0x", "(")) and name not in seen:
            seen.add(name)
            order.append(name)
with open(output, "w") as file:
    file.writelines(".text." + name + "\n" for name in order)
print(f"{output}: {len(order)} functions")
PY
