#!/usr/bin/env bash
# Builds the DocC documentation of the nine libraries with swift-docc-plugin, and fails on any
# warning (an unresolved ``symbol`` or <doc:article> link, a doc comment naming a parameter that
# does not exist, ...). The archives land in .build/plugins/Swift-DocC/outputs/<Target>.doccarchive;
# to read one in a browser, run
#   swift package --disable-sandbox preview-documentation --target BubbleDashboard
# Installs missing Debian packages first (the libraries link Cairo, Pango, zlib and libcrypto).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
ensure_debian_packages "${BUILD_PACKAGES[@]}"

targets=(BubbleSupport BubblePhysics BubbleDashboard BubbleRender PDFCore PDFMetadata PDFRender ReportLibrary ReportIndex)
args=()
for target in "${targets[@]}"; do args+=(--target "$target"); done
swift package generate-documentation "${args[@]}" --warnings-as-errors
