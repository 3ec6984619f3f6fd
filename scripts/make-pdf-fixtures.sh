#!/usr/bin/env bash
# Builds the PDF fixture corpus of the PDFMetadata tests, deterministically:
#   Tests/PDFMetadataTests/Fixtures/*.pdf and expected.json
# Producers: Cairo 1.16 (a tiny C program against the system's libcairo), qpdf (object streams,
# linearization, encryption R2–R4), reportlab and pikepdf from PyPI (installed here into a
# private virtual environment, script-only), and hand-written edge cases (scripts/pdf_fixtures.py).
# Needs: gcc, pkg-config, libcairo2-dev, qpdf, python3 (Debian: apt-get install -y qpdf
# libcairo2-dev pkg-config gcc).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=Tests/PDFMetadataTests/Fixtures
VENV=.build-pdf-venv
for tool in gcc pkg-config qpdf python3; do
    command -v "$tool" >/dev/null || { echo "make-pdf-fixtures: $tool is required" >&2; exit 1; }
done
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install -q pikepdf==10.17.0 reportlab==5.1.0 pycryptodome==4.4.0 2>/dev/null \
    || "$VENV/bin/pip" install -q pikepdf reportlab pycryptodome
TOOL="$VENV/cairo-fixture"
cat > "$VENV/cairo-fixture.c" <<'C'
#include <cairo.h>
#include <cairo-pdf.h>
/* Two pages, non-ASCII title and keywords, a fixed creation date (cairo 1.16 writes it
   without the D: prefix). Cairo's output is otherwise deterministic. */
int main(int argc, char **argv) {
    if (argc < 2) return 2;
    cairo_surface_t *s = cairo_pdf_surface_create(argv[1], 595, 842);
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, "Quarterly report \xe2\x80\x94 Z\xc3\xbcrich");
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_KEYWORDS,
                                   "Gr\xc3\xb6\xc3\x9f" "e, \xc3\x86r\xc3\xb8; \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e");
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, "2024-03-01T10:00:00+01:00");
    cairo_t *cr = cairo_create(s);
    cairo_move_to(cr, 50, 50);
    cairo_show_text(cr, "Hello");
    cairo_show_page(cr);
    cairo_show_page(cr);
    cairo_destroy(cr);
    cairo_surface_finish(s);
    int ok = cairo_surface_status(s) == CAIRO_STATUS_SUCCESS;
    cairo_surface_destroy(s);
    return ok ? 0 : 1;
}
C
gcc -O1 -o "$TOOL" "$VENV/cairo-fixture.c" $(pkg-config --cflags --libs cairo)
rm -f "$OUT"/*.pdf "$OUT"/expected.json
mkdir -p "$OUT"
"$VENV/bin/python" scripts/pdf_fixtures.py "$OUT" "$TOOL"
echo "make-pdf-fixtures: $(ls "$OUT"/*.pdf | wc -l) fixtures, $(du -sk "$OUT" | cut -f1) KB in $OUT"
