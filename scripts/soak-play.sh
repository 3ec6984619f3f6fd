#!/usr/bin/env bash
# The long soak of `bubbles play` (docs/play.md, "Soak"): a release server on Data/large.json
# (or $SOAK_DATA), four pages dragging at 120 Hz and misbehaving clients for MINUTES, from a
# second process. Every 30 s it prints the server's resident memory and CPU (from /proc) and the
# server's own statistics line; at the end each page's frames/s and input-to-frame p50/p99.
# Exits with status 1 when the soak saw a failure (a lost credit, a page that ended, a wrong
# close code, a half-sent request left open) or the server died.
#
#   scripts/soak-play.sh MINUTES [--scale 2] [--pages 4] [--polite]
#
# MINUTES may be a fraction (0.5). The options are `bubbles play-client`'s (the load client, a
# process of its own); the older spellings --soak-scale, --soak-pages and --soak-polite still work.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:?usage: scripts/soak-play.sh MINUTES [bubbles play-client options]}"
shift
client_options=()
for option in "$@"; do
    case "$option" in
        --soak-scale*) client_options+=("--scale${option#--soak-scale}") ;;
        --soak-pages*) client_options+=("--pages${option#--soak-pages}") ;;
        --soak-polite) client_options+=("--polite") ;;
        *) client_options+=("$option") ;;
    esac
done
data="${SOAK_DATA:-Data/large.json}"
# $BUBBLES: a bubbles binary to use instead of building one (a copy, so that builds during a long
# soak do not replace it under the running processes).
bin="${BUBBLES:-}"
if [[ -z "$bin" ]]; then
    swift build -c release --product bubbles >/dev/null
    bin="$(swift build -c release --show-bin-path)/bubbles"
fi
out="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null || true; rm -rf "$out"' EXIT

"$bin" play --data "$data" --port 0 --max-sessions 6 --stats 30 >"$out/url" 2>"$out/server.log" &
server=$!
for _ in $(seq 1 600); do
    grep -q 'http://' "$out/url" 2>/dev/null && break
    kill -0 "$server" 2>/dev/null || { cat "$out/server.log"; exit 1; }
    sleep 0.1
done
port="$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/.*#\1#p' "$out/url")"
echo "soak-play: server $server on port $port, $data, $minutes min"

ticks=$(getconf CLK_TCK)
sample() {
    # seconds since start, resident MB, CPU % of one core since the last sample
    local now cpu rss
    now=$(date +%s.%N)
    read -r utime stime < <(awk '{print $14, $15}' "/proc/$server/stat")
    cpu=$((utime + stime))
    rss=$(awk '/VmRSS/ {print $2}' "/proc/$server/status")
    awk -v t="$now" -v t0="$start" -v c="$cpu" -v c0="$last_cpu" -v tl="$last_t" -v hz="$ticks" -v r="$rss" \
        'BEGIN { printf "soak-play: %6.0f s  resident %5.0f MB  CPU %5.1f %%\n", t - t0, r / 1024, (c - c0) / hz / (t - tl) * 100 }'
    last_cpu=$cpu
    last_t=$now
}
start=$(date +%s.%N)
last_t=$start
last_cpu=0
read -r u s < <(awk '{print $14, $15}' "/proc/$server/stat")
last_cpu=$((u + s))

"$bin" play-client --seconds "$(awk -v m="$minutes" 'BEGIN { print m * 60 }')" --port "$port" ${client_options[@]+"${client_options[@]}"} >"$out/report" &
driver=$!
while kill -0 "$driver" 2>/dev/null; do
    for _ in $(seq 1 30); do kill -0 "$driver" 2>/dev/null && sleep 1; done
    kill -0 "$server" 2>/dev/null || { echo "soak-play: the server died"; cat "$out/server.log"; exit 1; }
    sample
    tail -n 1 "$out/server.log" | sed 's/^/soak-play: /'
done
status=0
wait "$driver" || status=$?
cat "$out/report"
# Idle: the pages are closed; memory given back?
sleep 5
sample
kill -INT "$server"
wait "$server" || true
tail -n 2 "$out/server.log"
exit "$status"
