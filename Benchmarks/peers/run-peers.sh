#!/usr/bin/env bash
# Peer comparison: the circle-only standard scene through our step, d3-force, Chipmunk 7 and
# Box2D v3, side by side in one run. Prints each peer's median ms per step (steps 21..120, the
# heavily overlapping start, like `bubbles bench`) beside ours, with the ratios.
#
#   Benchmarks/peers/run-peers.sh [N ...]          # default: 1000 10000
#
# Installs its peers itself (none is a dependency of the package):
#   d3-force  Debian node-d3-force + nodejs             (apt-get)
#   Chipmunk  Debian libchipmunk-dev, small C driver    (apt-get, gcc)
#   Box2D v3  the box2d-python wheel from PyPI, in a venv under .build-peers/ (needs Python 3.12+:
#             python3.12/3.13 on PATH or under pyenv; skipped with a message if none is found)
# Environment: BUBBLES=path to a release `bubbles` (else built with --scratch-path $SCRATCH,
# default .build-peers/swift), WARMUP (20), STEPS (100).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/.build-peers"
mkdir -p "$out"
warmup=${WARMUP:-20}
steps=${STEPS:-100}
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1000 10000)

say() { printf '%s\n' "$*" >&2; }

# --- peers -----------------------------------------------------------------------------------
need_apt=()
dpkg -s node-d3-force >/dev/null 2>&1 || need_apt+=(node-d3-force)
command -v node >/dev/null 2>&1 || need_apt+=(nodejs)
dpkg -s libchipmunk-dev >/dev/null 2>&1 || need_apt+=(libchipmunk-dev)
command -v gcc >/dev/null 2>&1 || need_apt+=(gcc)
if [ ${#need_apt[@]} -gt 0 ]; then
    say "installing ${need_apt[*]} (apt-get)"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >&2
fi
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
gcc -O2 -o "$out/chipmunk_driver" "$here/chipmunk_driver.c" -lchipmunk -lm

box2d_py=""
py312=""
for c in python3.13 python3.12 $(ls -d /root/.pyenv/versions/3.1[2-9]*/bin/python3 "$HOME"/.pyenv/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -u); do
    if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
        py312=$(command -v "$c"); break
    fi
done
if [ -n "$py312" ]; then
    if [ ! -x "$out/venv-box2d/bin/python" ] || ! "$out/venv-box2d/bin/python" -c 'import box2d' 2>/dev/null; then
        say "installing box2d-python into $out/venv-box2d (with $py312)"
        "$py312" -m venv "$out/venv-box2d"
        "$out/venv-box2d/bin/pip" install -q box2d-python >&2 || true
    fi
    "$out/venv-box2d/bin/python" -c 'import box2d' 2>/dev/null && box2d_py="$out/venv-box2d/bin/python"
fi
[ -n "$box2d_py" ] || say "Box2D v3: SKIPPED - box2d-python needs Python 3.12+ and none could be found or installed (Debian apt and PyPI only)"

# --- ours --------------------------------------------------------------------------------------
bubbles=${BUBBLES:-}
if [ -z "$bubbles" ]; then
    scratch=${SCRATCH:-$out/swift}
    say "building bubbles (release, --scratch-path $scratch)"
    (cd "$root" && swift build -c release --scratch-path "$scratch" --product bubbles >&2)
    bubbles="$scratch/release/bubbles"
fi

num() { # num JSON KEY -> value of the first "KEY": number
    python3 -c 'import json,sys; d=json.loads(sys.argv[1]); d=d[0] if isinstance(d,list) else d; print(d[sys.argv[2]])' "$1" "$2"
}
ratio() { python3 -c 'import sys; print("%.1f" % (float(sys.argv[1]) / float(sys.argv[2])))' "$1" "$2"; }

printf '%-16s %8s %12s %12s %14s\n' peer bodies "ms/step med" "peer/ours" "overlap pt" 
for n in "${counts[@]}"; do
    scene="$out/scene-circles-$n.json"
    "$bubbles" bench --export-scene "$scene" --circles-only --bodies "$n" 2>/dev/null
    ours=$("$bubbles" bench --scene "$scene" --json --warmup "$warmup" --steps "$steps" --settle-steps 0)
    ours_ms=$(num "$ours" ms_per_step_median)
    printf '%-16s %8s %12.3f %12s %14.3f\n' "bubbles" "$n" "$ours_ms" "1.0" "$(num "$ours" max_overlap_pt)"
    run_peer() { # label, command...
        local label=$1; shift
        local res
        # The last line is the JSON (Chipmunk prints a banner first).
        if res=$("$@" "$scene" "$warmup" "$steps" | tail -n 1) && [ -n "$res" ]; then
            local ms; ms=$(num "$res" ms_median)
            printf '%-16s %8s %12.3f %12s %14.3f\n' "$label" "$n" "$ms" "$(ratio "$ms" "$ours_ms")" "$(num "$res" max_overlap_pt)"
        else
            printf '%-16s %8s %12s\n' "$label" "$n" "failed"
        fi
    }
    run_peer d3-force node "$here/d3_driver.js"
    run_peer chipmunk7 "$out/chipmunk_driver"
    if [ -n "$box2d_py" ]; then
        run_peer box2d-v3 "$box2d_py" "$here/box2d_driver.py"
    else
        printf '%-16s %8s %12s\n' box2d-v3 "$n" "skipped (no Python 3.12+)"
    fi
done
say "overlap pt: deepest pair overlap after step $((warmup + steps)); peer/ours > 1 means the peer is slower"
