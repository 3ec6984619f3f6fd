#!/usr/bin/env bash
# Quick start, command 1: builds `bubbles` (release) and runs the main job on the shipped sample
# data: validates it and renders the first level into Renders/ (PNG and SVG). Installs missing
# Debian packages first.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
ensure_debian_packages "${BUILD_PACKAGES[@]}"

swift build -c release --product bubbles
bin="$(swift build -c release --show-bin-path)/bubbles"

"$bin" validate Data/reports.json
"$bin" render
