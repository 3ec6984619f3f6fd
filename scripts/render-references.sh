#!/usr/bin/env bash
# Re-renders the reference images in Renders/ that the README and docs/gallery.md show (run after changing the
# dashboard, the physics or the renderer, then look at them).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
ensure_debian_packages "${BUILD_PACKAGES[@]}"
swift build -c release --product bubbles
bin="$(swift build -c release --show-bin-path)/bubbles"

# The sample's index with its thumbnails (search and table rows show them).
"$bin" index
"$bin" render                                                   # first level (PNG and SVG)
"$bin" render --path finance/financial-statements/quarterly-results
"$bin" render --focus stores-germany                            # the deepest level
"$bin" render --focus monthly-close                             # 27 children
"$bin" render --overlay preview:q1-2016
"$bin" render --focus quarterly-results --overlay reports
"$bin" render --size 1024x768
"$bin" render --focus finance --size 390x844 --scale 3
# Titles in many scripts, emoji and both directions (Data/international.json).
"$bin" render --data Data/international.json --png Renders/level-international.png --svg Renders/level-international.svg
# A 600-report category shown as groups (Data/large.json).
"$bin" render --data Data/large.json --focus stores --png Renders/level-large.png --svg Renders/level-large.svg
# Titles with two varying fields (store, then week), and titles with no shared structure.
"$bin" render --data Data/large.json --focus store-pnl --png Renders/level-store-weeks.png --svg Renders/level-store-weeks.svg
"$bin" render --data Data/large.json --focus miscellaneous --png Renders/level-unstructured.png --svg Renders/level-unstructured.svg
# A level slightly over the legibility floor, which pans instead of being grouped (indicators at the edges).
"$bin" render --data Data/large.json --focus branches --png Renders/level-pans.png --svg Renders/level-pans.svg
# Five years of months: cards slightly over the canvas by area, which fit it in rows at the floor.
"$bin" render --data Data/large.json --focus monatsberichte --png Renders/level-rows.png --svg Renders/level-rows.svg
# Search (a query in progress, typed without its accent) and a level under a two-keyword filter.
"$bin" render --overlay "search:zur" --png Renders/search.png --svg Renders/search.svg
"$bin" render --filter 2016 --filter "management accounts" --png Renders/filter.png --svg Renders/filter.svg

# The report viewer: a chart report's page 1, page 2 after a scroll, 2x zoom, and swipes (one that springs
# back, one that dismisses), from Data/scenarios/viewer.json; search and table rows with thumbnails.
rm -rf out/viewer-references
"$bin" export Data/scenarios/viewer.json --out out/viewer-references --scale 1
for frame in 00300 00420 00470 00530 00625; do
    cp "out/viewer-references/frame-$frame.png" "Renders/viewer-frame-$frame.png"
done
"$bin" render --overlay "search:income" --png Renders/search-thumbnails.png --svg Renders/search-thumbnails.svg
# A report whose PDF is damaged past repair: the viewer says why in the page's place.
mkdir -p out/damaged/reports
printf '%%PDF-1.7\nnot a PDF body\n' > out/damaged/reports/broken.pdf
printf '{"id": "root", "title": "Damaged", "children": [{"id": "broken", "title": "Board Pack March 2016", "file": "reports/broken.pdf", "keywords": ["board pack"]}]}' > out/damaged/reports.json
"$bin" index --data out/damaged/reports.json >/dev/null || true
"$bin" render --data out/damaged/reports.json --overlay preview:broken --png Renders/preview-unavailable.png --svg Renders/preview-unavailable.svg

# The tour: its contact sheet and a handful of key frames (the whole sequence is not committed).
rm -rf out/tour-references
"$bin" export Data/scenarios/tour.json --out out/tour-references --scale 1
cp out/tour-references/contact-sheet.png Renders/tour-contact-sheet.png
for frame in 00045 00120 00312 00384 00516 00612 00720 00804; do
    cp "out/tour-references/frame-$frame.png" "Renders/tour-frame-$frame.png"
done
