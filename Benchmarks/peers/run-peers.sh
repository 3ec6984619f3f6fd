#!/usr/bin/env bash
# Peer comparison: the circle-only standard scene through our step, d3-force, Chipmunk 7 and
# Box2D v3, side by side in one run. Prints each engine's median ms per step (steps 21..120, the
# heavily overlapping start, like `bubbles bench`) and its ratios to ours on one thread and on
# THREADS threads (Box2D runs on both too), each the median over ROUNDS interleaved rounds.
#
#   Benchmarks/peers/run-peers.sh [N ...]          # default: 1000 10000
#
# Installs its peers itself (none is a dependency of the package):
#   d3-force  Debian node-d3-force + nodejs             (apt-get)
#   Chipmunk  Debian libchipmunk-dev, small C driver    (apt-get, gcc)
#   Box2D v3  the box2d-python wheel from PyPI, in a venv under .build-peers/ (needs Python 3.12+:
#             python3.12/3.13 on PATH or under pyenv; skipped with a message if none is found)
# Environment: BUBBLES=path to a release `bubbles` (else built with --scratch-path $SCRATCH,
# default .build-peers/swift), WARMUP (20), STEPS (100), ROUNDS (3), THREADS (the second thread
# count run for us and for Box2D besides one; default: the machine's cores), PEERS (the peers to
# run, default "d3-force chipmunk7 box2d-v3"; e.g. PEERS=box2d-v3 for 100 000 bodies, where the
# other two take minutes per step).
# With more than one count, a second table gives each engine's ns per body-step at every count
# and its scaling: that at the largest count over that at the smallest.
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
peers=" ${PEERS:-d3-force chipmunk7 box2d-v3} "
for p in $peers; do
    case $p in d3-force|chipmunk7|box2d-v3) ;; *) say "unknown peer '$p' in PEERS (d3-force, chipmunk7, box2d-v3)"; exit 2 ;; esac
done
want() { [[ $peers == *" $1 "* ]]; }

need_apt=()
if want d3-force; then
    dpkg -s node-d3-force >/dev/null 2>&1 || need_apt+=(node-d3-force)
    command -v node >/dev/null 2>&1 || need_apt+=(nodejs)
fi
if want chipmunk7; then
    dpkg -s libchipmunk-dev >/dev/null 2>&1 || need_apt+=(libchipmunk-dev)
    command -v gcc >/dev/null 2>&1 || need_apt+=(gcc)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
    say "installing ${need_apt[*]} (apt-get)"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >&2
fi
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
if want chipmunk7; then gcc -O2 -o "$out/chipmunk_driver" "$here/chipmunk_driver.c" -lchipmunk -lm; fi

box2d_py=""
py312=""
want box2d-v3 || py312=none
[ "$py312" = none ] || for c in python3.13 python3.12 $(ls -d /root/.pyenv/versions/3.1[2-9]*/bin/python3 "$HOME"/.pyenv/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -u); do
    if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
        py312=$(command -v "$c"); break
    fi
done
if [ -n "$py312" ] && [ "$py312" != none ]; then
    if [ ! -x "$out/venv-box2d/bin/python" ] || ! "$out/venv-box2d/bin/python" -c 'import box2d' 2>/dev/null; then
        say "installing box2d-python into $out/venv-box2d (with $py312)"
        "$py312" -m venv "$out/venv-box2d"
        "$out/venv-box2d/bin/pip" install -q box2d-python >&2 || true
    fi
    "$out/venv-box2d/bin/python" -c 'import box2d' 2>/dev/null && box2d_py="$out/venv-box2d/bin/python"
fi
[ -n "$box2d_py" ] || ! want box2d-v3 || say "Box2D v3: SKIPPED - box2d-python needs Python 3.12+ and none could be found or installed (Debian apt and PyPI only)"

# --- ours --------------------------------------------------------------------------------------
bubbles=${BUBBLES:-}
if [ -z "$bubbles" ]; then
    scratch=${SCRATCH:-$out/swift}
    say "building bubbles (release, --scratch-path $scratch)"
    (cd "$root" && swift build -c release --scratch-path "$scratch" --product bubbles >&2)
    bubbles="$scratch/release/bubbles"
fi

threads=${THREADS:-$(nproc)}
rounds=${ROUNDS:-3}
results="$out/peer-results.txt"
: > "$results"

# One line per run: label threads bodies round ms overlap. Each round runs every engine once, ours
# first, so that a slow spell of the (shared) machine hits the peers and us alike; the ratios are
# taken per round and their median reported.
record() { # label threads round JSON
    python3 - "$@" "$n" >> "$results" <<'PY'
import json, sys
label, threads, rnd, text, n = sys.argv[1:6]
d = json.loads(text)
d = d[0] if isinstance(d, list) else d
ms = d.get("ms_per_step_median", d.get("ms_median"))
print(label, threads, n, rnd, ms, d["max_overlap_pt"])
PY
}
run_peer() { # label threads round command...
    local label=$1 th=$2 rnd=$3; shift 3
    local res
    # The last line is the JSON (Chipmunk prints a banner first).
    if res=$(THREADS=$th "$@" "$scene" "$warmup" "$steps" | tail -n 1) && [ -n "$res" ]; then
        record "$label" "$th" "$rnd" "$res"
    else
        say "$label failed at $n bodies (round $rnd)"
    fi
}
for n in "${counts[@]}"; do
    scene="$out/scene-circles-$n.json"
    "$bubbles" bench --export-scene "$scene" --circles-only --bodies "$n" 2>/dev/null
    for rnd in $(seq "$rounds"); do
        say "$n bodies, round $rnd of $rounds"
        for th in 1 $([ "$threads" -gt 1 ] && echo "$threads"); do
            res=$("$bubbles" bench --scene "$scene" --json --warmup "$warmup" --steps "$steps" --settle-steps 0 --threads "$th")
            record bubbles "$th" "$rnd" "$res"
        done
        if want d3-force; then run_peer d3-force 1 "$rnd" node "$here/d3_driver.js"; fi
        if want chipmunk7; then run_peer chipmunk7 1 "$rnd" "$out/chipmunk_driver"; fi
        if [ -n "$box2d_py" ]; then
            for th in 1 $([ "$threads" -gt 1 ] && echo "$threads"); do
                run_peer box2d-v3 "$th" "$rnd" "$box2d_py" "$here/box2d_driver.py"
            done
        fi
    done
done
[ -n "$box2d_py" ] || ! want box2d-v3 || say "box2d-v3: skipped (no Python 3.12+)"

python3 - "$results" "$threads" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
threads = sys.argv[2]
ms = {}
ov = {}
for label, th, n, rnd, t, o in rows:
    ms.setdefault((n, label, th), {})[rnd] = float(t)
    ov[(n, label, th)] = float(o)
def ratio(n, key, ours_th):
    ours = ms.get((n, "bubbles", ours_th), {})
    r = [ms[key][k] / ours[k] for k in ms[key] if k in ours]
    return "%.1f" % statistics.median(r) if r else "-"
print("%-10s %7s %8s %12s %14s %14s %11s" % ("engine", "threads", "bodies", "ms/step med", "÷ ours 1 th", "÷ ours %s th" % threads, "overlap pt"))
for key in ms:
    n, label, th = key
    print("%-10s %7s %8s %12.3f %14s %14s %11.2f" % (label, th, n, statistics.median(ms[key].values()),
          ratio(n, key, "1"), ratio(n, key, threads), ov[key]))
counts = sorted({int(n) for n, _, _ in ms})
if len(counts) > 1:
    # ns per body-step at every count, and the largest count's over the smallest's.
    print()
    print("%-10s %7s " % ("engine", "threads") + " ".join("%10s" % ("ns@%d" % c) for c in counts) + " %9s" % ("%d/%d" % (counts[-1], counts[0])))
    for label, th in dict.fromkeys((l, t) for _, l, t in ms):
        ns = {c: statistics.median(ms[(str(c), label, th)].values()) * 1e6 / c for c in counts if (str(c), label, th) in ms}
        cells = " ".join("%10s" % ("%.0f" % ns[c] if c in ns else "-") for c in counts)
        scale = "%.2f" % (ns[counts[-1]] / ns[counts[0]]) if counts[0] in ns and counts[-1] in ns else "-"
        print("%-10s %7s " % (label, th) + cells + " %9s" % scale)
PY
say "ms/step: median over rounds of each run's median (steps $((warmup + 1))..$((warmup + steps))); ÷ ours: median over rounds of peer ms / ours ms in the same round (> 1: the peer is slower); overlap pt: deepest pair overlap after step $((warmup + steps)); ns@N: ns per body-step"
