#!/usr/bin/env bash
# Quick start, command 2: the whole test suite. Installs missing Debian packages first.
#
# Runs the determinism tests in a release build, then every test in a debug build: the pinned state
# hashes must be the same bits in both configurations. Then builds the DocC documentation of the
# libraries, failing on any warning (about 40 s on 2 cores once the debug build exists).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
ensure_debian_packages "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
ensure_debian_packages "${VIDEO_PACKAGES[@]}"

swift test -c release --filter Determinism
swift test
scripts/docs.sh
