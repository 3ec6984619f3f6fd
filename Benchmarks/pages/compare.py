#!/usr/bin/env python3
"""Compares page renders of a set of PDFs: poppler (reference), PDFium (second opinion) and,
optionally, our renderer (candidate). One row per file.

    compare.py [--ours 'CMD {pdf} {page} {out}'] [--page N] [--dpi 96] [--workers 2]
               [--timeout 30] [--json OUT.json] [--keep DIR [--montage]] PATH...

PATH: PDF files, or folders searched recursively for *.pdf; rows are sorted by path.

Engines, each rendering page N (default 1) at --dpi (default 96):
- poppler: `pdftoppm -r DPI -f N -l N -png -singlefile -cropbox` (wall time of the process);
           -cropbox because pdftoppm draws the media box by default, where PDFium, pdf.js and
           viewers show the crop box (pdf.js's annotation tests: 816x1056 against 456x173);
- pdfium:  pypdfium2 at scale DPI/72, forms initialised, in a child Python process (this script
           with --render-pdfium) so that a crash or hang costs only that file; its time is measured
           inside that process: open + load page + render to a bitmap (no interpreter start-up,
           no PNG encoding);
- ours:    the --ours template, split like a shell line, with {pdf} {page} {out} {dpi} filled
           in (wall time of the process), e.g.
           --ours '.build/release/bubbles page {pdf} --page {page} --dpi {dpi} --output {out}'.
Without --ours, PDFium is the candidate (the baseline: PDFium against poppler).

An engine fails when it exits non-zero, runs past --timeout seconds or leaves no readable image;
the row keeps the first line of its stderr.

Measures, on grey levels (ITU-R 601 luma of the RGB image composited on white):
- ssim: 4x4 mean pooling of both images, then Gaussian-window SSIM (sigma 1.5, 11x11,
  K1 0.01, K2 0.03, range 255), averaged over the map less a 5-pixel border. Sizes that differ
  by up to 2 px are cropped to the common size; more is "size mismatch" with ssim 0.
- ink precision / recall / f1: dark pixels (luma < 128). Precision: the candidate's dark pixels
  with a reference dark pixel within 1 px (3x3 dilation); recall: the same the other way round.
  Both pages without ink: 1.0. Full resolution.
- ink_ratio: the candidate's dark pixel count / the reference's (null when the reference has none
  and the candidate has some; 1.0 when neither has any).

Scores are computed for pdfium_vs_poppler, and with --ours for ours_vs_poppler and ours_vs_pdfium.
In the summary, a candidate that fails where poppler succeeded counts as ssim 0 and f1 0; rows
where poppler failed are left out of the score columns (counted as "ref fail").

Producer families come from /Producer (else /Creator) of the Info dictionary (pypdf, else
pdfinfo): pdfTeX, LuaTeX, XeTeX/dvipdfmx, LibreOffice, Cairo, matplotlib, ReportLab,
WeasyPrint, groff, Ghostscript, Microsoft Word, Acrobat/Distiller, other.

Output: Markdown on stdout (per family and overall, then per top-level corpus folder when there
are several; the 10 worst files by the candidate's ssim; poppler's failures);
--json writes every row. --keep DIR keeps the PNGs (DIR/NAME.poppler.png, .pdfium.png,
.ours.png); --montage (with --keep) also writes DIR/montage/NAME.png, the three side by side,
for the 10 worst files.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

VERSION = 1
FAMILIES = ["pdfTeX", "LuaTeX", "XeTeX/dvipdfmx", "LibreOffice", "Cairo", "matplotlib",
            "ReportLab", "WeasyPrint", "groff", "Ghostscript", "Microsoft Word",
            "Acrobat/Distiller", "other"]
FAMILY_PATTERNS = [  # checked in order against /Producer, then /Creator
    ("LuaTeX", r"luatex|luahbtex|luametatex"),
    ("XeTeX/dvipdfmx", r"xetex|xdvipdfmx|dvipdfm"),
    ("pdfTeX", r"pdf(e)?tex"),
    ("LibreOffice", r"libreoffice|openoffice|staroffice"),
    ("matplotlib", r"matplotlib"),
    ("ReportLab", r"reportlab"),
    ("WeasyPrint", r"weasyprint"),
    ("Cairo", r"cairo"),
    ("groff", r"groff|gropdf"),
    ("Ghostscript", r"ghostscript"),
    ("Microsoft Word", r"microsoft.*word|word.*microsoft|^word\b|microsoft: print to pdf"),
    ("Acrobat/Distiller", r"acrobat|distiller|adobe pdf library|pdfmaker"),
]
SSIM_MIN, F1_MIN, NEAR_PDFIUM = 0.95, 0.93, 0.02


# ---------------------------------------------------------------------------------------------
# PDFium child process


def render_pdfium(pdf_path, page_no, out, dpi):
    """--render-pdfium mode: renders one page, writes the PNG, prints {"ms": ...}."""
    import pypdfium2 as pdfium
    t0 = time.perf_counter()
    doc = pdfium.PdfDocument(pdf_path)
    try:
        if page_no > len(doc):
            raise ValueError(f"page {page_no} out of range ({len(doc)} pages)")
        doc.init_forms()
        page = doc[page_no - 1]
        bitmap = page.render(scale=dpi / 72.0, may_draw_forms=True)
        ms = (time.perf_counter() - t0) * 1000.0
        bitmap.to_pil().save(out, compress_level=1)
    finally:
        doc.close()
    print(json.dumps({"ms": ms}))


# ---------------------------------------------------------------------------------------------
# Images and measures


def load_luma(path):
    """Grey levels (float32, 0..255) of an image composited on white, or None."""
    import numpy as np
    from PIL import Image
    try:
        im = Image.open(path)
        im.load()
    except Exception:
        return None
    if im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info) \
            or (im.mode in ("RGB", "L") and "transparency" in im.info):
        im = im.convert("RGBA")
        bg = Image.new("RGBA", im.size, (255, 255, 255, 255))
        bg.alpha_composite(im)
        im = bg
    if im.mode == "I;16" or im.mode == "I":
        a = np.asarray(im, dtype=np.float32)
        return a / 257.0 if a.max() > 255 else a
    rgb = np.asarray(im.convert("RGB"), dtype=np.float32)
    return rgb[..., 0] * 0.299 + rgb[..., 1] * 0.587 + rgb[..., 2] * 0.114


def pool4(a):
    import numpy as np
    h, w = (a.shape[0] // 4) * 4, (a.shape[1] // 4) * 4
    if h == 0 or w == 0:
        return a.astype(np.float64)
    return a[:h, :w].reshape(h // 4, 4, w // 4, 4).mean(axis=(1, 3)).astype(np.float64)


def ssim(x, y):
    from scipy.ndimage import gaussian_filter
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    g = lambda a: gaussian_filter(a, 1.5, truncate=3.5, mode="reflect")  # radius 5: 11x11
    mx, my = g(x), g(y)
    sxx, syy, sxy = g(x * x) - mx * mx, g(y * y) - my * my, g(x * y) - mx * my
    m = ((2 * mx * my + c1) * (2 * sxy + c2)) / ((mx * mx + my * my + c1) * (sxx + syy + c2))
    if m.shape[0] > 10 and m.shape[1] > 10:
        m = m[5:-5, 5:-5]
    return float(m.mean())


def compare(ref, cand):
    """Scores of a candidate luma image against a reference one."""
    import numpy as np
    from scipy.ndimage import binary_dilation
    out = {"ssim": 0.0, "ink_precision": 0.0, "ink_recall": 0.0, "ink_f1": 0.0,
           "ink_ratio": None, "note": None}
    (hr, wr), (hc, wc) = ref.shape, cand.shape
    ink_r, ink_c = int((ref < 128).sum()), int((cand < 128).sum())
    out["ink_ratio"] = 1.0 if ink_r == 0 and ink_c == 0 else (ink_c / ink_r if ink_r else None)
    if abs(hr - hc) > 2 or abs(wr - wc) > 2:
        out["note"] = f"size mismatch {wr}x{hr} vs {wc}x{hc}"
        return out
    h, w = min(hr, hc), min(wr, wc)
    a, b = ref[:h, :w], cand[:h, :w]
    out["ssim"] = ssim(pool4(a), pool4(b))
    da, db = a < 128, b < 128
    na, nb = int(da.sum()), int(db.sum())
    if na == 0 and nb == 0:
        p = r = f = 1.0
    else:
        k = np.ones((3, 3), dtype=bool)
        p = float((db & binary_dilation(da, k)).sum()) / nb if nb else 0.0
        r = float((da & binary_dilation(db, k)).sum()) / na if na else 0.0
        f = 2 * p * r / (p + r) if p + r > 0 else 0.0
    out.update(ink_precision=p, ink_recall=r, ink_f1=f)
    return out


# ---------------------------------------------------------------------------------------------
# Producers


def info_fields(path):
    producer = creator = None
    try:
        import logging
        import pypdf
        logging.getLogger("pypdf").setLevel(logging.CRITICAL)
        meta = pypdf.PdfReader(path, strict=False).metadata or {}
        producer, creator = meta.get("/Producer"), meta.get("/Creator")
        producer = str(producer) if producer is not None else None
        creator = str(creator) if creator is not None else None
    except ImportError:
        try:
            r = subprocess.run(["pdfinfo", "-enc", "UTF-8", path], capture_output=True, timeout=30)
            for line in r.stdout.decode("utf-8", "replace").splitlines():
                k, _, v = line.partition(":")
                if k == "Producer":
                    producer = v.strip()
                elif k == "Creator":
                    creator = v.strip()
        except Exception:
            pass
    except Exception:
        pass
    return producer, creator


def family(producer, creator):
    for s in (producer, creator):
        if not s:
            continue
        low = s.lower()
        for name, pat in FAMILY_PATTERNS:
            if re.search(pat, low):
                return name
    return "other"


# ---------------------------------------------------------------------------------------------
# One file


def first_line(b):
    """The first line of stderr that names an error, else its first non-empty line."""
    lines = [l.strip() for l in b.decode("utf-8", "replace").splitlines() if l.strip()]
    for line in lines:
        if "error" in line.lower():
            return line[:300]
    return lines[0][:300] if lines else ""


def run_engine(argv, out, timeout, inner_ms=False):
    res = {"ok": False, "ms": None, "error": None, "size": None}
    t0 = time.perf_counter()
    try:
        r = subprocess.run(argv, capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        res["error"] = f"timeout after {timeout:g} s"
        return res
    except OSError as e:
        res["error"] = f"cannot run: {e}"
        return res
    wall = (time.perf_counter() - t0) * 1000.0
    res["ms"] = wall
    if inner_ms and r.returncode == 0:
        try:
            res["ms"] = json.loads(r.stdout.decode().strip().splitlines()[-1])["ms"]
            res["process_ms"] = wall
        except Exception:
            pass
    if r.returncode != 0:
        sig = f" (signal {-r.returncode})" if r.returncode < 0 else ""
        res["error"] = f"exit {r.returncode}{sig}: {first_line(r.stderr)}"
        return res
    if not os.path.exists(out) or os.path.getsize(out) == 0:
        res["error"] = "no image: " + first_line(r.stderr)
        return res
    res["ok"] = True
    return res


def safe_name(path, root_common):
    rel = os.path.relpath(path, root_common) if root_common else os.path.basename(path)
    base = re.sub(r"[^A-Za-z0-9._-]+", "_", rel.replace(os.sep, "__"))
    if len(base) > 120:
        base = base[:100] + "-" + hashlib.sha1(rel.encode()).hexdigest()[:10]
    return base[:-4] if base.lower().endswith(".pdf") else base


def process_file(task):
    path, name, opts = task
    row = {"file": path, "name": name, "page": opts["page"]}
    row["producer"], row["creator"] = info_fields(path)
    row["family"] = family(row["producer"], row["creator"])
    work = opts["keep"] or tempfile.mkdtemp(prefix="pagecmp-")
    outs = {e: os.path.join(work, f"{name}.{e}.png") for e in ("poppler", "pdfium", "ours")}
    for p in outs.values():
        if os.path.exists(p):
            os.remove(p)
    dpi, page, timeout = opts["dpi"], opts["page"], opts["timeout"]
    engines = {}
    engines["poppler"] = run_engine(
        ["pdftoppm", "-r", str(dpi), "-f", str(page), "-l", str(page), "-png", "-singlefile",
         "-cropbox", path, outs["poppler"][:-4]], outs["poppler"], timeout)
    engines["pdfium"] = run_engine(
        [sys.executable, os.path.abspath(__file__), "--render-pdfium", path, str(page),
         outs["pdfium"], str(dpi)], outs["pdfium"], timeout, inner_ms=True)
    if opts["ours"]:
        fill = {"{pdf}": path, "{page}": str(page), "{out}": outs["ours"], "{dpi}": str(dpi)}
        argv = [re.sub(r"\{(pdf|page|out|dpi)\}", lambda m: fill[m.group(0)], t)
                for t in shlex.split(opts["ours"])]
        engines["ours"] = run_engine(argv, outs["ours"], timeout)
    images = {}
    for e, res in engines.items():
        if res["ok"]:
            img = load_luma(outs[e])
            if img is None:
                res.update(ok=False, error="no image: unreadable PNG")
            else:
                images[e] = img
                res["size"] = [int(img.shape[1]), int(img.shape[0])]
                res["ink"] = int((img < 128).sum())
    row["engines"] = engines
    pairs = [("pdfium_vs_poppler", "pdfium", "poppler")]
    if opts["ours"]:
        pairs += [("ours_vs_poppler", "ours", "poppler"), ("ours_vs_pdfium", "ours", "pdfium")]
    for key, cand, ref in pairs:
        row[key] = compare(images[ref], images[cand]) if cand in images and ref in images else None
    if not opts["keep"]:
        shutil.rmtree(work, ignore_errors=True)
    return row


# ---------------------------------------------------------------------------------------------
# Summary


def collect(paths):
    found = []
    for p in paths:
        if os.path.isfile(p):
            found.append(os.path.abspath(p))
        elif os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                found += [os.path.abspath(os.path.join(root, f)) for f in files
                          if f.lower().endswith(".pdf")]
        else:
            sys.exit(f"compare.py: no such file or folder: {p}")
    return sorted(set(found))


def candidate_of(row, has_ours):
    """(candidate engine, its scores against poppler) for the summary."""
    return ("ours", row.get("ours_vs_poppler")) if has_ours else ("pdfium", row["pdfium_vs_poppler"])


def folder_of(row, root):
    rel = os.path.relpath(row["file"], root)
    return rel.split(os.sep)[0] if os.sep in rel else "."


def summarise(rows, has_ours, root):
    def stats(group):
        s = {"files": len(group)}
        scored = [r for r in group if r["engines"]["poppler"]["ok"]]
        s["ref_failures"] = len(group) - len(scored)
        cand = "ours" if has_ours else "pdfium"
        ssims, f1s, near, low_ink, fails = [], [], 0, 0, 0
        for r in scored:
            _, sc = candidate_of(r, has_ours)
            if not r["engines"][cand]["ok"]:
                fails += 1
            ssims.append(sc["ssim"] if sc else 0.0)
            f1s.append(sc["ink_f1"] if sc else 0.0)
            if has_ours:
                base = r["pdfium_vs_poppler"]
                if sc and base and sc["ssim"] >= base["ssim"] - NEAR_PDFIUM:
                    near += 1
                ci = r["engines"]["ours"].get("ink")
                pi, fi = r["engines"]["poppler"].get("ink"), r["engines"]["pdfium"].get("ink")
                if ci is not None and pi and fi and ci < pi / 10 and ci < fi / 10:
                    low_ink += 1
        n = len(scored)
        s["scored"] = n
        s["ssim_median"] = statistics.median(ssims) if n else None
        s["ssim_ge_095"] = sum(x >= SSIM_MIN for x in ssims) / n if n else None
        s["ink_f1_median"] = statistics.median(f1s) if n else None
        s["ink_f1_ge_093"] = sum(x >= F1_MIN for x in f1s) / n if n else None
        s["candidate_failures"] = fails
        if has_ours:
            s["near_pdfium"] = near / n if n else None
            s["low_ink"] = low_ink
            b = [r["pdfium_vs_poppler"]["ssim"] if r["pdfium_vs_poppler"] else 0.0 for r in scored]
            s["pdfium_ssim_median"] = statistics.median(b) if b else None
        for e in ("poppler", "pdfium", "ours"):
            ms = [r["engines"][e]["ms"] for r in group
                  if e in r["engines"] and r["engines"][e]["ok"]]
            s[f"{e}_ms_median"] = statistics.median(ms) if ms else None
        return s

    out = {"families": {}, "folders": {}, "overall": stats(rows)}
    for fam in FAMILIES:
        g = [r for r in rows if r["family"] == fam]
        if g:
            out["families"][fam] = stats(g)
    folders = sorted({folder_of(r, root) for r in rows})
    if len(folders) > 1:
        for d in folders:
            out["folders"][d] = stats([r for r in rows if folder_of(r, root) == d])
    return out


def fmt(x, pct=False, digits=3):
    if x is None:
        return "–"
    return f"{100 * x:.0f} %" if pct else f"{x:.{digits}f}"


def markdown(summary, rows, has_ours, worst):
    cand = "ours" if has_ours else "PDFium"
    lines = [f"Candidate: {cand}; reference: poppler (pdftoppm). Failures of the candidate count "
             f"as SSIM 0 / F1 0; files poppler fails are left out of the scores.", ""]
    head = ["family", "files", "ref fail", "SSIM med", "≥ 0.95", "ink-F1 med", "≥ 0.93"]
    if has_ours:
        head += ["PDFium SSIM med", "within 0.02 of PDFium", "ink < 1/10"]
    head += ["cand. fail", "poppler ms", "PDFium ms"] + (["ours ms"] if has_ours else [])
    items = list(summary["families"].items()) + [("**all**", summary["overall"])]
    table(lines, head, items, has_ours)
    if summary["folders"]:
        lines += ["", "By corpus folder:", ""]
        table(lines, ["folder"] + head[1:], list(summary["folders"].items()), has_ours)
    lines += ["", f"Worst {len(worst)} files by the candidate's ({cand}) pooled SSIM against poppler:", "",
              "| file | family | SSIM | ink-F1 | ink ratio | note |", "|---|---|---:|---:|---:|---|"]
    for r in worst:
        c, sc = candidate_of(r, has_ours)
        err = r["engines"][c]["error"]
        note = err or (sc or {}).get("note") or ""
        lines.append(f"| {r['name']} | {r['family']} | {fmt(sc['ssim'] if sc else 0.0)} | "
                     f"{fmt(sc['ink_f1'] if sc else 0.0)} | {fmt((sc or {}).get('ink_ratio'), digits=2)} "
                     f"| {note.replace('|', '/')} |")
    fails = [r for r in rows if not r["engines"]["poppler"]["ok"]]
    if fails:
        lines += ["", f"poppler failed on {len(fails)} files:", ""]
        for r in fails[:30]:
            other = "PDFium ok" if r["engines"]["pdfium"]["ok"] else "PDFium fails too"
            lines.append(f"- {r['name']}: {r['engines']['poppler']['error']} ({other})")
        if len(fails) > 30:
            lines.append(f"- … {len(fails) - 30} more in the JSON")
    return "\n".join(lines)


def table(lines, head, items, has_ours):
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for fam, s in items:
        cells = [fam, str(s["files"]), str(s["ref_failures"]), fmt(s["ssim_median"]),
                 fmt(s["ssim_ge_095"], True), fmt(s["ink_f1_median"]), fmt(s["ink_f1_ge_093"], True)]
        if has_ours:
            cells += [fmt(s["pdfium_ssim_median"]), fmt(s["near_pdfium"], True), str(s["low_ink"])]
        cells += [str(s["candidate_failures"]), fmt(s["poppler_ms_median"], digits=0),
                  fmt(s["pdfium_ms_median"], digits=0)]
        if has_ours:
            cells.append(fmt(s["ours_ms_median"], digits=0))
        lines.append("| " + " | ".join(cells) + " |")


def montage(keep, row, has_ours):
    from PIL import Image, ImageDraw
    names = ["poppler", "pdfium"] + (["ours"] if has_ours else [])
    ims = []
    for e in names:
        p = os.path.join(keep, f"{row['name']}.{e}.png")
        try:
            im = Image.open(p).convert("RGBA")
            bg = Image.new("RGBA", im.size, "white")
            bg.alpha_composite(im)
            ims.append((e, bg.convert("RGB")))
        except Exception:
            ims.append((e + " (failed)", Image.new("RGB", (200, 260), (255, 220, 220))))
    h = max(im.height for _, im in ims) + 20
    w = sum(im.width for _, im in ims) + 10 * (len(ims) - 1)
    canvas = Image.new("RGB", (w, h), (128, 128, 128))
    draw = ImageDraw.Draw(canvas)
    x = 0
    for label, im in ims:
        canvas.paste(im, (x, 20))
        draw.text((x + 4, 4), label, fill=(255, 255, 255))
        x += im.width + 10
    os.makedirs(os.path.join(keep, "montage"), exist_ok=True)
    canvas.save(os.path.join(keep, "montage", f"{row['name']}.png"))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--render-pdfium":
        _, _, pdf, page, out, dpi = sys.argv
        try:
            render_pdfium(pdf, int(page), out, float(dpi))
        except Exception as e:
            sys.exit(f"PDFium error: {type(e).__name__}: {e}".splitlines()[0])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", metavar="PATH")
    ap.add_argument("--ours", help="candidate command template with {pdf} {page} {out} [{dpi}]")
    ap.add_argument("--page", type=int, default=1)
    ap.add_argument("--dpi", type=float, default=96)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=30, help="seconds per engine and file")
    ap.add_argument("--json", metavar="OUT.json")
    ap.add_argument("--keep", metavar="DIR")
    ap.add_argument("--montage", action="store_true")
    ap.add_argument("--worst", type=int, default=10)
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")
    a = ap.parse_args()
    if a.montage and not a.keep:
        ap.error("--montage needs --keep DIR")
    if a.ours and ("{pdf}" not in a.ours or "{out}" not in a.ours):
        ap.error("--ours needs {pdf} and {out} in its template")
    if shutil.which("pdftoppm") is None:
        sys.exit("compare.py: pdftoppm not found (apt-get install poppler-utils)")
    dpi = int(a.dpi) if a.dpi == int(a.dpi) else a.dpi
    files = collect(a.paths)
    if not files:
        sys.exit("compare.py: no PDF found")
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
    common = os.path.commonpath(files) if len(files) > 1 else os.path.dirname(files[0])
    opts = {"page": a.page, "dpi": dpi, "timeout": a.timeout, "ours": a.ours,
            "keep": os.path.abspath(a.keep) if a.keep else None}
    tasks = [(f, safe_name(f, common), opts) for f in files]
    rows, t0 = [], time.time()
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, a.workers)) as ex:
        futs = [ex.submit(process_file, t) for t in tasks]
        for i, fut in enumerate(concurrent.futures.as_completed(futs), 1):
            rows.append(fut.result())
            if not a.quiet and (i % 25 == 0 or i == len(futs)):
                print(f"  {i}/{len(futs)} files, {time.time() - t0:.0f} s", file=sys.stderr)
    rows.sort(key=lambda r: r["file"])
    has_ours = bool(a.ours)
    summary = summarise(rows, has_ours, common)
    scored = [r for r in rows if r["engines"]["poppler"]["ok"]]
    key = lambda r: ((candidate_of(r, has_ours)[1] or {}).get("ssim", 0.0), r["file"])
    worst = sorted(scored, key=key)[:a.worst]
    print(markdown(summary, rows, has_ours, worst))
    if a.montage:
        for r in worst:
            montage(opts["keep"], r, has_ours)
    if a.json:
        import pypdfium2.version as pv
        pdftoppm_v = first_line(subprocess.run(["pdftoppm", "-v"], capture_output=True).stderr)
        doc = {"version": VERSION, "page": a.page, "dpi": dpi, "ours": a.ours,
               "tools": {"pdftoppm": pdftoppm_v, "pypdfium2": pv.PYPDFIUM_INFO.version,
                         "pdfium": pv.PDFIUM_INFO.version},
               "root": common, "summary": summary,
               "worst": [r["file"] for r in worst], "rows": rows}
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
