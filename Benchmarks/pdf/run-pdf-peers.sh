#!/usr/bin/env bash
# Compares `bubbles bench pdf` with pdfinfo (one process per file) and pikepdf (one Python
# process) over the same PDF folders in one run, and prints the ratios. See README.md here.
#
#   Benchmarks/pdf/run-pdf-peers.sh [--repeats N] [--make-large] [DIR...]
#
# Default folders: Tests/PDFMetadataTests/Fixtures, Data/reports and .build-pdfbench/large when it
# exists (--make-large writes it first with make-large-pdfs.py; needs qpdf for the variants).
# Builds `bubbles` in release with --scratch-path .build-pdfbench; installs poppler-utils with
# apt-get when pdfinfo is missing and pikepdf with pip into .build-pdfbench/venv.
# BUBBLES=/path/to/bubbles uses that binary instead of building one.
# Writes the results as JSON to .build-pdfbench/pdf-peers.json.
set -euo pipefail
cd "$(dirname "$0")/../.."
HERE=Benchmarks/pdf
SCRATCH=.build-pdfbench
VENV=$SCRATCH/venv
REPEATS=5
MAKE_LARGE=0
DIRS=()
while [ $# -gt 0 ]; do
    case "$1" in
        --repeats) REPEATS="$2"; shift 2 ;;
        --make-large) MAKE_LARGE=1; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) DIRS+=("$1"); shift ;;
    esac
done

if [ "$MAKE_LARGE" = 1 ]; then
    python3 "$HERE/make-large-pdfs.py" "$SCRATCH/large"
fi
if [ ${#DIRS[@]} -eq 0 ]; then
    DIRS=(Tests/PDFMetadataTests/Fixtures Data/reports)
    if ls "$SCRATCH"/large/*.pdf >/dev/null 2>&1; then DIRS+=("$SCRATCH/large"); fi
fi

# Our reader.
if [ -z "${BUBBLES:-}" ]; then
    echo "run-pdf-peers: building bubbles (release, --scratch-path $SCRATCH)" >&2
    swift build -c release --product bubbles --scratch-path "$SCRATCH" >&2
    BUBBLES="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/bubbles"
fi
if ! "$BUBBLES" bench pdf --help >/dev/null 2>&1; then
    echo "run-pdf-peers: '$BUBBLES bench' has no pdf subcommand." >&2
    echo "  Set BUBBLES to a binary that accepts 'bench pdf DIR --json --repeats N'." >&2
    exit 1
fi

# pdfinfo (poppler-utils).
if ! command -v pdfinfo >/dev/null; then
    echo "run-pdf-peers: installing poppler-utils for pdfinfo" >&2
    SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get install -y poppler-utils >&2 || { $SUDO apt-get update >&2 && $SUDO apt-get install -y poppler-utils >&2; }
fi

# pikepdf in its own virtual environment.
if ! "$VENV/bin/python" -c 'import pikepdf' 2>/dev/null; then
    echo "run-pdf-peers: installing pikepdf into $VENV" >&2
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q pikepdf==10.17.0 >&2 || "$VENV/bin/pip" install -q pikepdf >&2
fi

exec "$VENV/bin/python" "$HERE/pdf_peers.py" --bubbles "$BUBBLES" --repeats "$REPEATS" \
    --json-out "$SCRATCH/pdf-peers.json" "${DIRS[@]}"
