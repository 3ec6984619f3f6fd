#!/usr/bin/env python3
"""Times PDFium (pypdfium2) page rendering in-process, as the peer of `bubbles bench page`.

    pdfium_time.py [--dpi 96] [--repeats 3] [--pages first|all] [--json] PATH...
    pdfium_time.py --first-page-with-open [--width PX | --dpi 96] [--repeats 3] [--json] PATH...

PATH: PDF files, or folders searched recursively for *.pdf (sorted).

Default mode: each document is opened once (open time reported apart); for each page timed
(page 1 with --pages first, every page with --pages all) the clock runs over loading the page
(FPDF_LoadPage, where PDFium parses the content stream), rendering it at scale dpi/72 into a
BGR(x) bitmap filled white (annotations drawn, forms not initialised) and closing the page;
no PNG is encoded and no copy is made. Each page is timed --repeats times; its time is the median.

--first-page-with-open: per file and repeat, the clock runs over opening the document, loading
page 1, rendering it (at --width PX across, the height following the page's aspect; or at --dpi)
and closing both: the cost of a thumbnail from a file name. A file's time is the median.

Timing uses time.perf_counter (monotonic, wall clock); run it on a quiet machine.

JSON (--json) on stdout, stable fields (version 1):
  version      1
  tool         "pypdfium2 <version> (pdfium <build>)"
  mode         "render" or "first-page-with-open"
  dpi          the dpi used (null when --width is given)
  width        the width in px (null unless --width is given)
  repeats      repeats per page (or per file)
  pages        number of timed pages (mode render) or files timed (first-page-with-open)
  ms           per timed page (or file), the median over the repeats, in ms, in file order
               then page order
  median_ms    median of ms (null when empty)
  p90_ms       90th percentile of ms, linear interpolation between closest ranks (null when empty)
  total_ms     sum of ms
  per_file     one object per file: file (path), pages (pages in the document, null if it could
               not be opened), open_ms (mode render: one open, ms; null in the other mode),
               ms (this file's list of per-page medians; in first-page-with-open one value),
               error (null, or "Type: message" when opening or rendering failed; the file's
               pages timed before the error are kept)
  failures     number of files with an error
Without --json, a short text summary. Exit status 0 even when some files fail; 2 for bad
arguments or no PDF found.
"""
import argparse
import json
import os
import statistics
import sys
import time

import pypdfium2 as pdfium

VERSION = 1


def collect(paths):
    found = []
    for p in paths:
        if os.path.isfile(p):
            found.append(p)
        elif os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                found += [os.path.join(root, f) for f in files if f.lower().endswith(".pdf")]
        else:
            print(f"pdfium_time.py: no such file or folder: {p}", file=sys.stderr)
            sys.exit(2)
    return sorted(set(found))


def percentile(xs, q):
    if not xs:
        return None
    s = sorted(xs)
    k = (len(s) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def render(page, scale=None, width=None):
    if width is not None:
        scale = width / page.get_width()
    bitmap = page.render(scale=scale)
    return bitmap


def time_document(path, dpi, repeats, all_pages):
    entry = {"file": path, "pages": None, "open_ms": None, "ms": [], "error": None}
    try:
        t0 = time.perf_counter()
        doc = pdfium.PdfDocument(path)
        entry["open_ms"] = (time.perf_counter() - t0) * 1000.0
    except Exception as e:
        entry["error"] = f"{type(e).__name__}: {e}".splitlines()[0]
        return entry
    try:
        n = len(doc)
        entry["pages"] = n
        for i in range(n if all_pages else min(n, 1)):
            runs = []
            for _ in range(repeats):
                t0 = time.perf_counter()
                page = doc[i]
                bitmap = render(page, scale=dpi / 72.0)
                page.close()
                runs.append((time.perf_counter() - t0) * 1000.0)
                bitmap.close()
            entry["ms"].append(statistics.median(runs))
    except Exception as e:
        entry["error"] = f"{type(e).__name__}: {e}".splitlines()[0]
    finally:
        doc.close()
    return entry


def time_first_with_open(path, dpi, width, repeats):
    entry = {"file": path, "pages": None, "open_ms": None, "ms": [], "error": None}
    runs = []
    try:
        for _ in range(repeats):
            t0 = time.perf_counter()
            doc = pdfium.PdfDocument(path)
            try:
                entry["pages"] = len(doc)
                page = doc[0]
                bitmap = render(page, scale=None if width else dpi / 72.0, width=width)
                page.close()
            finally:
                doc.close()
            runs.append((time.perf_counter() - t0) * 1000.0)
            bitmap.close()
        entry["ms"].append(statistics.median(runs))
    except Exception as e:
        entry["error"] = f"{type(e).__name__}: {e}".splitlines()[0]
    return entry


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", metavar="PATH")
    ap.add_argument("--dpi", type=float, default=96)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--pages", choices=["first", "all"], default="first")
    ap.add_argument("--first-page-with-open", action="store_true")
    ap.add_argument("--width", type=int, help="with --first-page-with-open: width in px")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.repeats < 1:
        ap.error("--repeats must be at least 1")
    if a.width is not None and not a.first_page_with_open:
        ap.error("--width goes with --first-page-with-open")
    files = collect(a.paths)
    if not files:
        print("pdfium_time.py: no PDF found", file=sys.stderr)
        sys.exit(2)
    per_file = []
    for f in files:
        if a.first_page_with_open:
            per_file.append(time_first_with_open(f, a.dpi, a.width, a.repeats))
        else:
            per_file.append(time_document(f, a.dpi, a.repeats, a.pages == "all"))
    ms = [x for e in per_file for x in e["ms"]]
    import pypdfium2.version as pv
    dpi = None if a.width else (int(a.dpi) if a.dpi == int(a.dpi) else a.dpi)
    out = {
        "version": VERSION,
        "tool": f"pypdfium2 {pv.PYPDFIUM_INFO.version} (pdfium {pv.PDFIUM_INFO.build})",
        "mode": "first-page-with-open" if a.first_page_with_open else "render",
        "dpi": dpi, "width": a.width, "repeats": a.repeats,
        "pages": len(ms), "ms": ms,
        "median_ms": statistics.median(ms) if ms else None,
        "p90_ms": percentile(ms, 0.9), "total_ms": sum(ms),
        "per_file": per_file,
        "failures": sum(1 for e in per_file if e["error"]),
    }
    if a.json:
        print(json.dumps(out))
        return
    what = "files (open + page 1)" if a.first_page_with_open else "pages"
    print(f"{out['tool']}, {out['mode']}, " + (f"width {a.width} px" if a.width else f"{dpi} dpi")
          + f", {a.repeats} repeats")
    if ms:
        print(f"{len(ms)} {what}: median {out['median_ms']:.2f} ms, p90 {out['p90_ms']:.2f} ms, "
              f"total {out['total_ms']:.0f} ms")
    for e in per_file:
        if e["error"]:
            print(f"failed: {e['file']}: {e['error']}")


if __name__ == "__main__":
    main()
