# Sourced by scripts/test.sh and scripts/postgres-test.sh: a throw-away PostgreSQL cluster for the
# tests of the index's PostgreSQL store.
#
#   start_test_postgres   initdb + pg_ctl in a new temporary folder, as an unprivileged user (as
#                         root: `nobody`, since PostgreSQL refuses to run as root), listening only
#                         on a Unix socket in that folder, on a free port number; exports
#                         BUBBLES_TEST_POSTGRES_URL. Without Debian's PostgreSQL server it says so
#                         and exports nothing: those tests are then reported skipped.
#                         PG_TEST_SETTINGS adds server settings (e.g. "-c shared_buffers=2GB" for
#                         `bubbles bench search --index` at 1 000 000 reports).
#   stop_test_postgres    stops it and removes the folder (call it from an EXIT trap).

PG_TEST_DIR=""
PG_TEST_RUN=()
PG_TEST_BIN=""

start_test_postgres() {
    PG_TEST_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$PG_TEST_BIN" ] || [ ! -x "$PG_TEST_BIN/initdb" ]; then
        echo "note: no PostgreSQL server installed; the PostgreSQL index tests are skipped" >&2
        return 0
    fi
    PG_TEST_DIR=$(mktemp -d "${TMPDIR:-/tmp}/bubbles-pg.XXXXXX")
    PG_TEST_RUN=()
    if [ "$(id -u)" -eq 0 ]; then
        chown nobody "$PG_TEST_DIR"
        PG_TEST_RUN=(runuser -u nobody --)
    fi
    "${PG_TEST_RUN[@]}" "$PG_TEST_BIN/initdb" -D "$PG_TEST_DIR/data" -U bubbles --auth=trust -E UTF8 --locale=C.UTF-8 >"$PG_TEST_DIR/initdb.log" 2>&1 \
        || { cat "$PG_TEST_DIR/initdb.log" >&2; return 1; }
    # A port number no other server uses on this machine (the socket's name holds it).
    local port
    for port in $(seq $((20000 + RANDOM % 20000)) 45000); do
        [ -e "/tmp/.s.PGSQL.$port" ] || ss -ltn 2>/dev/null | grep -q ":$port " || break
    done
    "${PG_TEST_RUN[@]}" "$PG_TEST_BIN/pg_ctl" -D "$PG_TEST_DIR/data" -l "$PG_TEST_DIR/server.log" -w -s \
        -o "-c listen_addresses='' -k $PG_TEST_DIR -p $port -c fsync=off -c synchronous_commit=off -c max_connections=200 ${PG_TEST_SETTINGS:-}" start \
        || { cat "$PG_TEST_DIR/server.log" >&2; return 1; }
    "$PG_TEST_BIN/createdb" -h "$PG_TEST_DIR" -p "$port" -U bubbles bubbles
    export BUBBLES_TEST_POSTGRES_URL="postgres://bubbles@localhost/bubbles?host=$PG_TEST_DIR&port=$port"
    echo "PostgreSQL test cluster: $PG_TEST_DIR, port $port" >&2
}

stop_test_postgres() {
    if [ -n "$PG_TEST_DIR" ] && [ -d "$PG_TEST_DIR/data" ]; then
        "${PG_TEST_RUN[@]}" "$PG_TEST_BIN/pg_ctl" -D "$PG_TEST_DIR/data" -m immediate -s stop >/dev/null 2>&1 || true
        rm -rf "$PG_TEST_DIR"
    fi
    PG_TEST_DIR=""
}
