#!/usr/bin/env bash
# Quick start, command 1: builds `bubbles` (release) and runs the main job on the shipped sample
# data: validates it, renders the first level into Renders/ (PNG and SVG) and exports the tour
# scenario into Renders/tour/ (frames, manifest, contact sheet and index.html to review them in a
# browser, and tour.mp4; the tour drills in, drags, goes back, opens a report's real pages in the
# preview and the reports table). Installs missing Debian packages first.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
ensure_debian_packages "${BUILD_PACKAGES[@]}"
ensure_debian_packages "${VIDEO_PACKAGES[@]}"

swift build -c release --product bubbles
bin="$(swift build -c release --show-bin-path)/bubbles"

"$bin" validate Data/reports.json
"$bin" index
"$bin" render
"$bin" export Data/scenarios/tour.json --out Renders/tour --video Renders/tour/tour.mp4
