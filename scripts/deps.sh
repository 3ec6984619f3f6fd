# Sourced by the other scripts: installs the Debian packages the project needs, only when missing.
#
#   ensure_debian_packages PACKAGE...
#
# Uses apt-get directly as root and through sudo otherwise, and says what it installs.

# Needed to build and run: Cairo (renderer, sample PDFs), Pango (all text: shaping with HarfBuzz,
# bidirectional text, line breaking, per-glyph font fallback), zlib (PDF Flate), libdeflate (the PNG encoder), libcrypto
# (encrypted PDFs, content hashes), SQLite with FTS5 (the library index, through GRDB), pkg-config (SwiftPM finds the system libraries with it), and the only fonts the
# renderer uses (pinned in Sources/BubbleRender/PinnedFonts.swift, so output does not depend on
# whatever else a machine has): DejaVu, Noto for the other scripts, Noto CJK, Noto Color Emoji.
# The page renderer adds FreeType (PDF fonts), fontconfig's headers, libjpeg-turbo (DCTDecode images)
# and Liberation (metric-compatible free substitutes for the standard-14 fonts a PDF does not embed),
# and poppler-data for the files of Adobe's CJK CMaps (BSD-3-Clause data read at run time, no code).
BUILD_PACKAGES=(pkg-config libcairo2-dev libpango1.0-dev zlib1g-dev libdeflate-dev libssl-dev libsqlite3-dev
    libfreetype-dev libfontconfig-dev libturbojpeg0-dev libopenjp2-7-dev
    fontconfig fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji fonts-liberation2 poppler-data)
# Needed by the tests only: pdfinfo cross-checks the PDF reader and pdftoppm the page renderer
# (measuring tools, never linked); headless Chromium opens the export's review page.
TEST_PACKAGES=(poppler-utils chromium)
# Needed by the tests of the index's PostgreSQL store: Debian's server (initdb, pg_ctl), run as a
# throw-away cluster by scripts/postgres-cluster.sh; only its client protocol is used, no library linked.
POSTGRES_PACKAGES=(postgresql)
# Needed by `bubbles export --video` (and its tests, which check the video with ffprobe): the
# ffmpeg program, fed the drawn frames on its standard input.
VIDEO_PACKAGES=(ffmpeg)

ensure_debian_packages() {
    if ! command -v dpkg-query >/dev/null 2>&1; then
        echo "note: not a Debian system; make sure these are installed: $*" >&2
        return 0
    fi
    local missing=()
    local pkg
    for pkg in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$pkg")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0

    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            sudo=(sudo)
        else
            echo "error: missing Debian packages ${missing[*]}, and not root and no sudo to install them" >&2
            return 1
        fi
    fi
    echo "Installing missing Debian packages: ${missing[*]}" >&2
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}
