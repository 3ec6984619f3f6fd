#!/usr/bin/env bash
# Instructions per metadata read, counted by callgrind (repeatable, unlike time on a shared machine).
#
#     Benchmarks/pdf/callgrind-read.sh BUBBLES DIR [DIR...]
#
# For each DIR, runs `BUBBLES bench pdf DIR` under valgrind's callgrind with `--repeats 1` and with
# `--repeats 3`, and prints the files and the instructions per read: the difference of the two
# totals over twice the file count, so start-up and reporting cancel out and what is left is the
# read with the bench's own per-read bookkeeping (two clock reads, the system-call floor). valgrind
# 3.19 cannot read the DWARF 5 debug information of a release build, so the binary runs from a
# copy without it (objcopy --strip-debug).
set -euo pipefail
bin=$1; shift
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
objcopy --strip-debug "$bin" "$work/bubbles"
count() {
    valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/bubbles" bench pdf "$1" --repeats "$2" \
        >/dev/null 2>"$work/log" || { cat "$work/log" >&2; exit 1; }
    grep '^summary:' "$work/out" | awk '{print $2}'
}
for dir in "$@"; do
    files=$(find "$dir" -name '*.pdf' | wc -l)
    one=$(count "$dir" 1)
    three=$(count "$dir" 3)
    echo "$dir files=$files instructions_per_read=$(( (three - one) / (2 * files) ))"
done
