#!/usr/bin/env bash
# The index's PostgreSQL tests alone, against a throw-away cluster (scripts/postgres-cluster.sh):
# the conformance suite (every ReportIndex test on PostgreSQL), the crash and concurrency tests.
# Arguments go to `swift test` (default: --filter Postgres).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
source scripts/postgres-cluster.sh
ensure_debian_packages "${POSTGRES_PACKAGES[@]}"
trap stop_test_postgres EXIT
start_test_postgres
if [ $# -eq 0 ]; then set -- --filter Postgres; fi
swift test "$@"
