#!/usr/bin/env bash
# Takes the README's screenshot of `bubbles play` (Renders/play.png) in headless Chromium: the
# first level, the debug overlay on, a bubble held away from its place. Needs Debian's chromium
# (scripts/deps.sh installs it). Runs one test of the BubblePlay suite with BUBBLES_PLAY_SCREENSHOT.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-Renders/play.png}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
BUBBLES_PLAY_SCREENSHOT="$out" swift test -j 2 --filter 'PlayBrowserTests/screenshotForTheReadme' 2>&1 | grep -E '✔|✘|error' || true
test -s "$out" && echo "wrote $out"
