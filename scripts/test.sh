#!/usr/bin/env bash
# Quick start, command 2: the whole test suite. Installs missing Debian packages first.
#
# Starts a throw-away PostgreSQL cluster (scripts/postgres-cluster.sh) for the index's PostgreSQL
# store, stopped at exit. Builds the `bubbles` and `determinism-check` products in release (no test
# targets, no testable imports) and runs `determinism-check`: the pinned state hashes and pixels
# (Sources/DeterminismPins) in a release build. Then the release play server under a 30 s soak
# (scripts/soak-play.sh: pages and misbehaving clients from a second process) and every fuzz
# target for a few seconds (scripts/fuzz.sh: release, address sanitizer; two run at a time), then
# every test in a debug build, the same pins among them: the pinned state hashes must be the same
# bits in both configurations. Then builds the DocC documentation of the libraries, failing on any
# warning (about 40 s on 2 cores once the debug build exists). BUBBLES_FUZZ_SECONDS sets each fuzz
# target's run (default 10). Each step ends with a line `== test.sh: STEP took N s`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
source scripts/postgres-cluster.sh
ensure_debian_packages "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
ensure_debian_packages "${VIDEO_PACKAGES[@]}"
ensure_debian_packages "${POSTGRES_PACKAGES[@]}"
# A throw-away PostgreSQL cluster for the index's PostgreSQL tests, stopped at exit, also on failure.
trap stop_test_postgres EXIT
start_test_postgres

# Runs a step and says how long it took.
step() {
    local name=$1 start=$SECONDS
    shift
    "$@"
    echo "== test.sh: $name took $((SECONDS - start)) s"
}

# Runs the fuzz targets given at once, each on one core, their lines marked with the target;
# fails if any of them fails.
fuzz_together() {
    local pids=() status=0 target
    for target in "$@"; do
        (scripts/fuzz.sh "$target" "${BUBBLES_FUZZ_SECONDS:-10}" 2>&1 | sed -u "s/^/[$target] /") &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || status=1; done
    return "$status"
}

# Release builds of the products only: `swift test -c release` would build every test target and
# module in release with testable imports (about ten minutes here) to run six tests. The second
# build reuses the first one's modules; the soak runs that same `bubbles`.
release_build() {
    swift build -c release --product bubbles
    swift build -c release --product determinism-check
}
step "release build" release_build
release_bin=$(swift build -c release --show-bin-path)
step "release Determinism" "$release_bin/determinism-check"
# Release builds, beyond the pinned hashes: a crash that only a release build had (a Mutex unlocked
# on another thread after an inlined thread-local read) was found by a soak, not by the suite.
step "release soak" env BUBBLES="$release_bin/bubbles" SOAK_DATA=Data/reports.json \
    scripts/soak-play.sh 0.5
# The fuzz targets: the five products of one package (Fuzz/) built in one build (a module that
# several targets use is compiled once, and the others side by side: 75 s here against 115 s for
# five builds one after another), then run two at a time (a libFuzzer run uses one core), which
# takes 30 s of the machine instead of 50.
step "fuzz builds" scripts/fuzz.sh all 0
step "fuzz pdf + page" fuzz_together pdf page
step "fuzz library + scenario" fuzz_together library scenario
step "fuzz play" fuzz_together play
step "debug suite" swift test
step "docs" scripts/docs.sh
