#!/usr/bin/env bash
# The play server's figures (Benchmarks/NOTES.md, "Play server"):
#   1. `bubbles bench play`: input message to frame, frames/s while bubbles move at scale 1 and 2,
#      rest (in process);
#   2. a real page at rest: `bubbles play` with headless Chromium (Debian's chromium) showing the
#      page; the server's CPU time over 10 s and the frames it sent in all.
# Build first: swift build -c release -j 2 --product bubbles (or set BUBBLES to the binary).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BUBBLES:-.build/release/bubbles}
"$bin" bench play "$@"

chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then echo "no chromium: skipping the page at rest" >&2; exit 0; fi
tmp=$(mktemp -d)
port=${PORT:-8397}
"$bin" play --port "$port" > "$tmp/play.log" 2>&1 &
server=$!
cleanup() {
    [ -n "${browser:-}" ] && kill "$browser" 2>/dev/null || true
    kill -INT "$server" 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT
sleep 3
"$chromium" --headless --no-sandbox --disable-gpu --no-first-run --remote-debugging-port=0 \
    --user-data-dir="$tmp/profile" --window-size=1100,1100 "http://127.0.0.1:$port/" > /dev/null 2>&1 &
browser=$!
sleep 8   # the page connects, shows the start screen and rests
ticks=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$server/stat"; }
c0=$(cpu)
sleep 10
c1=$(cpu)
kill "$browser"; wait "$browser" 2>/dev/null || true
browser=
kill -INT "$server"; wait "$server" || true
echo "page at rest for 10 s: server CPU $(awk -v a="$c0" -v b="$c1" -v t="$ticks" 'BEGIN { printf "%.2f", (b - a) / t / 10 * 100 }') % of one core;" \
    "$(grep -o 'stopped after .*' "$tmp/play.log")"
