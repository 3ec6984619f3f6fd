#!/usr/bin/env python3
"""Compares our reader's title, keywords and page count with the consensus of pdfinfo, pikepdf
and pypdf, file by file, and prints the agreement and every disagreement.

    pdf_agreement.py --bubbles BIN [--json-out FILE] DIR_OR_FILE...

Needs pikepdf and pypdf in the running Python (run-pdf-peers.sh's venv plus `pip install pypdf`)
and pdfinfo on PATH. The consensus of a field is the value at least two of the three tools give
(a tool that cannot read the file does not vote); a field with no such value is counted apart.
pdfinfo, pikepdf and pypdf show the Info dictionary only, so a field that the consensus leaves
empty while the file's XMP has it (dc:title; pdf:Keywords or dc:subject, read with pikepdf) is
not compared: ours takes it from XMP on purpose. Keyword strings are split with our rule
(`PDFKeywords.split`, ported below) so that the comparison is about what is read, not how a
string is split.
"""
import argparse
import json
import logging
import os
import subprocess
import sys
from collections import Counter

import pikepdf
import pypdf

logging.getLogger("pypdf").setLevel(logging.CRITICAL)  # its repair notes go to stderr otherwise
SEPARATORS = {",", ";", "\n", "\r", "\u2028", "\u2029", "\uff0c", "\uff1b", "\u3001"}


def split_keywords(s):
    if not s:
        return []
    out, seen, cur = [], set(), []
    for ch in s + ",":
        if ch in SEPARATORS:
            t = "".join(cur).strip().strip("\ufeff\0").strip()
            cur = []
            if t and t.lower() not in seen:
                seen.add(t.lower())
                out.append(t)
        else:
            cur.append(ch)
    return out


def collect(paths):
    found = []
    for d in paths:
        if os.path.isfile(d):
            found.append(d)
            continue
        for root, _, files in os.walk(d):
            found += [os.path.join(root, f) for f in files if f.lower().endswith(".pdf")]
    return sorted(found)


def blank(s):
    return None if s is None or not str(s).strip() else str(s)


def by_pdfinfo(f):
    # poppler 22.12 loops forever on some damaged files (qpdf's shared-unnamed-field.pdf): a peer
    # that does not answer in 30 s does not vote.
    try:
        r = subprocess.run(["pdfinfo", "-enc", "UTF-8", f], capture_output=True, timeout=30)
    except subprocess.TimeoutExpired:
        return None
    if r.returncode != 0:
        return None
    fields = {}
    for line in r.stdout.decode("utf-8", "replace").splitlines():
        k, sep, v = line.partition(":")
        if sep and k.replace(" ", "").isalpha():
            fields[k] = v.strip()
    pages = fields.get("Pages")
    return {"title": blank(fields.get("Title")), "keywords": split_keywords(fields.get("Keywords")),
            "pages": int(pages) if pages and pages.isdigit() else None}


def by_pikepdf(f):
    try:
        with pikepdf.open(f) as pdf:
            info = pdf.docinfo
            t, k = info.get("/Title"), info.get("/Keywords")
            return {"title": blank(t and str(t)), "keywords": split_keywords(k and str(k)), "pages": len(pdf.pages)}
    except Exception:
        return None


def xmp_fields(f):
    """The fields the file's XMP packet has (title, keywords), as pikepdf reads them."""
    try:
        with pikepdf.open(f) as pdf:
            meta = pdf.open_metadata()
            has = set()
            if meta.get("dc:title"):
                has.add("title")
            if meta.get("pdf:Keywords") or meta.get("dc:subject"):
                has.add("keywords")
            return has
    except Exception:
        return set()


def by_pypdf(f):
    try:
        r = pypdf.PdfReader(f)
        m = r.metadata or {}
        t, k = m.get("/Title"), m.get("/Keywords")
        return {"title": blank(t and str(t)), "keywords": split_keywords(k and str(k)), "pages": len(r.pages)}
    except Exception:
        return None


def consensus(values):
    votes = Counter(json.dumps(v, ensure_ascii=False) for v in values)
    if not votes:
        return False, None
    top, n = votes.most_common(1)[0]
    return (n >= 2), json.loads(top)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bubbles", required=True)
    ap.add_argument("--json-out")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    files = collect(a.paths)
    ours = {}
    out = subprocess.run([a.bubbles, "keywords", "--json", *files], capture_output=True).stdout.decode()
    for line in out.splitlines():
        d = json.loads(line)
        ours[d["file"]] = d
    fields = ("title", "keywords", "pages")
    agree_files, compared, no_consensus, rows = 0, 0, Counter(), []
    for f in files:
        peers = [r for r in (by_pdfinfo(f), by_pikepdf(f), by_pypdf(f)) if r is not None]
        o = ours.get(f, {})
        mine = {"title": o.get("title"), "keywords": o.get("keywords", []), "pages": o.get("pages")}
        in_xmp = None
        diffs, checked = [], 0
        for k in fields:
            ok, c = consensus([p[k] for p in peers])
            if not ok:
                no_consensus[k] += 1
                continue
            if k != "pages" and mine[k] and not c:
                in_xmp = xmp_fields(f) if in_xmp is None else in_xmp
                if k in in_xmp:
                    continue  # XMP-only: the peers do not look there
            checked += 1
            if mine[k] != c:
                diffs.append({"field": k, "ours": mine[k], "consensus": c})
        if checked == 0:
            continue
        compared += 1
        if not diffs:
            agree_files += 1
        else:
            rows.append({"file": f, "differences": diffs, "error": o.get("error")})
    share = agree_files / compared if compared else 0.0
    print("files %d, compared %d, agree on every compared field %d (%.1f %%)" % (len(files), compared, agree_files, 100 * share))
    print("fields without a consensus: %s" % dict(no_consensus))
    for r in rows:
        print("  %s: %s" % (os.path.basename(r["file"]),
                            "; ".join("%s ours %r, consensus %r" % (d["field"], d["ours"], d["consensus"]) for d in r["differences"])))
    if a.json_out:
        with open(a.json_out, "w") as fh:
            json.dump({"files": len(files), "compared": compared, "agree": agree_files, "share": share,
                       "no_consensus": dict(no_consensus), "disagreements": rows}, fh, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    sys.exit(main())
