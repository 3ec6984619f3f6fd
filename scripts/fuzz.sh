#!/usr/bin/env bash
# Builds one libFuzzer target (release, address sanitizer) and runs it for SECONDS seconds on one
# core, seeded from committed files. See Fuzz/README.md.
#
#   scripts/fuzz.sh pdf|page|library|scenario|play SECONDS [extra libFuzzer flags...]
#   scripts/fuzz.sh all 0
#
# SECONDS 0 builds the target and runs nothing. `all 0` builds the five targets in one build, which
# compiles the modules they do not share side by side (scripts/test.sh builds them so, then runs
# two at a time).
#
# Build folder: .build-fuzz/ (the one package Fuzz/, all five targets); working corpus, log and
# findings: .build-fuzz-TARGET/ (both ignored by git). A crash, timeout or
# out-of-memory input is left as .build-fuzz-TARGET/crash-* (timeout-*, oom-*); commit it as a
# regression input (Fuzz/Regressions/TARGET/) with a test in the normal suite.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

usage() {
    echo "usage: scripts/fuzz.sh pdf|page|library|scenario|play SECONDS [libFuzzer flags...]" >&2
    echo "       scripts/fuzz.sh all 0    (builds the five targets, runs nothing)" >&2
    exit 2
}
[ $# -ge 2 ] || usage
target=$1
seconds=$2
flags=()
shift 2
[[ "$seconds" =~ ^[0-9]+$ ]] || usage

# The package's build: the flags every target is built with, and one build folder for the five,
# so that a module several targets use is compiled once.
build="$root/.build-fuzz"
swift_build() {
    (cd Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
        --scratch-path "$build" "$@")
}

case "$target" in
all)
    [ "$seconds" -eq 0 ] || usage
    echo "== building the five fuzz targets (release, -sanitize=fuzzer,address) into .build-fuzz"
    swift_build
    exit 0
    ;;
pdf)
    product=PDFReaderFuzz max_len=65536
    seeds=(Tests/PDFMetadataTests/Fixtures/*.pdf)
    # Inputs of any length up to max_len from the start: libFuzzer otherwise grows them slowly and
    # in a run of minutes never passes 16 KiB, where the reader keeps a file in windows of blocks
    # instead of whole.
    flags=(-len_control=0)
    ;;
library)
    product=LibraryFuzz max_len=65536
    seeds=(Data/reports.json Fuzz/Seeds/library/*.json)
    ;;
scenario)
    product=ScenarioFuzz max_len=8192
    seeds=(Data/scenarios/*.json Fuzz/Seeds/scenario/*.json)
    # The datasource the fuzzed scenarios run against (ids of the sample library).
    export BUBBLES_FUZZ_DATA="$root/Data/reports.json"
    ;;
page)
    product=PageRenderFuzz max_len=65536
    seeds=(Tests/PDFRenderTests/Fixtures/*.pdf Tests/PDFMetadataTests/Fixtures/cairo-basic.pdf)
    # fontconfig's process-lifetime configuration reads as a leak to LeakSanitizer.
    export LSAN_OPTIONS="suppressions=$root/Fuzz/lsan-page.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
    ;;
play)
    product=PlayMessageFuzz max_len=8192
    seeds=(Fuzz/Seeds/play/*.json)
    ;;
*) usage ;;
esac
if [ -d "Fuzz/Regressions/$target" ]; then
    shopt -s nullglob
    seeds+=(Fuzz/Regressions/"$target"/*)
    shopt -u nullglob
fi

# Each target's corpus, log and findings have their own folder.
scratch="$root/.build-fuzz-$target"
echo "== building $product (release, -sanitize=fuzzer,address) into .build-fuzz"
swift_build --product "$product"
[ "$seconds" -gt 0 ] || exit 0
mkdir -p "$scratch"

corpus="$scratch/corpus"
mkdir -p "$corpus"
cp "${seeds[@]}" "$corpus/"
echo "== running $product for $seconds s (${#seeds[@]} seeds, working corpus .build-fuzz-$target/corpus)"
log="$scratch/fuzz.log"
set +e
"$build/release/$product" "$corpus" -max_total_time="$seconds" -max_len="$max_len" \
    -rss_limit_mb=2048 -timeout=5 -print_final_stats=1 -artifact_prefix="$scratch/" ${flags[@]+"${flags[@]}"} "$@" > "$log" 2>&1 &
fuzzer=$!
# Progress: libFuzzer's start, its pulses (at powers of two) and its end.
tail -n +1 -f "$log" --pid="$fuzzer" | grep --line-buffered -E '^#[0-9]+[[:space:]]+(INITED|pulse|DONE)|ERROR|^SUMMARY'
wait "$fuzzer"
status=$?
set -e

# Summary: executions, executions per second, coverage (edges), corpus, findings.
runs=$(grep -Eo 'stat::number_of_executed_units:[[:space:]]*[0-9]+' "$log" | awk '{print $2}' | tail -1 || true)
rate=$(grep -Eo 'stat::average_exec_per_sec:[[:space:]]*[0-9]+' "$log" | awk '{print $2}' | tail -1 || true)
peak=$(grep -Eo 'stat::peak_rss_mb:[[:space:]]*[0-9]+' "$log" | awk '{print $2}' | tail -1 || true)
cov=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | grep -Eo 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' | tail -1 || true)
echo "== $target: ${runs:-?} executions, ${rate:-?} exec/s in ${seconds} s, peak RSS ${peak:-?} MB; ${cov:-no DONE line}"
shopt -s nullglob
findings=("$scratch"/crash-* "$scratch"/timeout-* "$scratch"/oom-* "$scratch"/leak-*)
if [ ${#findings[@]} -gt 0 ] || [ "$status" -ne 0 ]; then
    echo "== findings (exit status $status):" "${findings[@]}"
    exit 1
fi
echo "== no crash, timeout, leak or out-of-memory"
