#!/usr/bin/env python3
"""Writes a local corpus of multi-megabyte PDFs for `bubbles bench pdf` (not committed).

    python3 Benchmarks/pdf/make-large-pdfs.py [OUT]        # default OUT: .build-pdfbench/large

Two base files are written here, with the standard library only (deterministic: a seeded PRNG,
fixed dates, fixed /ID):

  images-classic.pdf  160 pages, each showing its own 48 KB image of random (incompressible)
                      bytes; about 7.8 MB; few objects, classic cross-reference table.
  text-classic.pdf    4 000 pages, each with a 1.2 KB uncompressed content stream; about 6 MB;
                      12 000 objects, so the classic cross-reference table alone is 240 KB.

Both have an Info dictionary (written last, as most producers do) and an XMP packet in the
catalog, and a flat page tree (the reader takes /Count from the root, it never walks it).
From them, with qpdf when it is installed (qpdf --static-id keeps the output reproducible):

  *-objstm.pdf                  --object-streams=generate (cross-reference stream, object streams)
  *-linearized.pdf              --linearize
  text-linearized-objstm.pdf    both
  images-aes128.pdf             --encrypt "" owner 128 --use-aes=y (revision 4), --static-aes-iv
  text-aes128-objstm.pdf        the same, with object streams
  images-aes256.pdf             --encrypt "" owner 256 (revision 6): qpdf draws its salts at
                                random, so this file's bytes (never its layout) vary between runs
and, written here:
  images-incremental.pdf        images-classic.pdf plus an incremental update that replaces the
                                Info dictionary (new keywords; the reader follows /Prev).
"""
import os
import random
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATE = b"D:20240301100000+01'00'"
FILE_ID = b"<8f1c2a3b4d5e6f708192a3b4c5d6e7f8>"


class Writer:
    """Appends numbered objects and remembers their offsets; writes a classic xref table."""

    def __init__(self):
        self.buf = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
        self.offsets = {}
        self.next_num = 1

    def reserve(self):
        n = self.next_num
        self.next_num += 1
        return n

    def obj(self, num, body):
        self.offsets[num] = len(self.buf)
        self.buf += b"%d 0 obj\n" % num + body + b"\nendobj\n"

    def stream(self, num, dict_body, data):
        self.obj(num, b"<< " + dict_body + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream")

    def finish(self, root, info):
        xref = len(self.buf)
        size = self.next_num
        out = [b"xref\n0 %d\n" % size, b"0000000000 65535 f \n"]
        for n in range(1, size):
            out.append(b"%010d 00000 n \n" % self.offsets[n])
        self.buf += b"".join(out)
        self.buf += (b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R /ID [%s %s] >>\nstartxref\n%d\n%%%%EOF\n"
                     % (size, root, info, FILE_ID, FILE_ID, xref))
        return bytes(self.buf)


def xmp_packet(title, keywords):
    return ("""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">%s</rdf:li></rdf:Alt></dc:title>
   <pdf:Keywords>%s</pdf:Keywords>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>""" % (title, keywords)).encode("utf-8")


def document(pages, title, keywords, page_objects):
    """Writes catalog, page tree, pages (from page_objects), XMP and, last, Info."""
    w = Writer()
    catalog, pages_root, metadata = w.reserve(), w.reserve(), w.reserve()
    kids = []
    for i in range(pages):
        page = w.reserve()
        kids.append(page)
        page_objects(w, i, page, pages_root)
    w.obj(pages_root, b"<< /Type /Pages /Count %d /Kids [" % pages
          + b" ".join(b"%d 0 R" % k for k in kids) + b"] >>")
    w.stream(metadata, b"/Type /Metadata /Subtype /XML", xmp_packet(title, keywords))
    w.obj(catalog, b"<< /Type /Catalog /Pages %d 0 R /Metadata %d 0 R >>" % (pages_root, metadata))
    info = w.reserve()
    w.obj(info, b"<< /Title (%s) /Keywords (%s) /Producer (make-large-pdfs.py) /CreationDate (%s) /ModDate (%s) >>"
          % (title.encode(), keywords.encode(), DATE, DATE))
    return w, w.finish(catalog, info)


def images_pdf(rng):
    side = 224  # 224 x 224 DeviceGray, 8 bits: 49 KB per image

    def page(w, i, num, parent):
        image, content = w.reserve(), w.reserve()
        w.stream(image, b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
                 b"/BitsPerComponent 8" % (side, side), rng.randbytes(side * side))
        w.stream(content, b"", b"q 500 0 0 500 47 171 cm /Im0 Do Q BT /F1 12 Tf 47 140 Td (Page %d) Tj ET" % (i + 1))
        w.obj(num, b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 595 842] /Contents %d 0 R "
              b"/Resources << /XObject << /Im0 %d 0 R >> /Font << /F1 << /Type /Font /Subtype /Type1 "
              b"/BaseFont /Helvetica >> >> >> >>" % (parent, content, image))

    return document(160, "Large report: images", "benchmark, images, large", page)


def text_pdf(rng):
    words = [b"revenue", b"margin", b"forecast", b"region", b"quarter", b"variance", b"headcount",
             b"budget", b"actual", b"target", b"cost", b"centre", b"growth", b"churn", b"pipeline"]

    def page(w, i, num, parent):
        content = w.reserve()
        lines = [b"BT /F1 9 Tf 40 800 Td 11 TL"]
        while sum(len(x) for x in lines) < 1200:
            lines.append(b"(" + b" ".join(rng.choice(words) for _ in range(8)) + b" %d) '" % rng.randrange(10 ** 6))
        lines.append(b"ET")
        w.stream(content, b"", b"\n".join(lines))
        w.obj(num, b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 595 842] /Contents %d 0 R "
              b"/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>"
              % (parent, content))

    return document(4000, "Large report: text", "benchmark, text, many objects", page)


def incremental(base_writer, base):
    """Appends an update that replaces the Info dictionary, with /Prev to the first section."""
    prev = int(base.rsplit(b"startxref", 1)[1].split()[0])
    size = base_writer.next_num
    info = size
    root = 1
    buf = bytearray(base)
    off = len(buf)
    buf += (b"%d 0 obj\n<< /Title (Large report: images, revised) /Keywords (benchmark, incremental, revised) "
            b"/Producer (make-large-pdfs.py) /ModDate (%s) >>\nendobj\n" % (info, DATE))
    xref = len(buf)
    buf += b"xref\n0 1\n0000000000 65535 f \n%d 1\n%010d 00000 n \n" % (info, off)
    buf += (b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R /Prev %d /ID [%s %s] >>\nstartxref\n%d\n%%%%EOF\n"
            % (size + 1, root, info, prev, FILE_ID, FILE_ID, xref))
    return bytes(buf)


def main():
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build-pdfbench", "large"))
    os.makedirs(out, exist_ok=True)
    for f in os.listdir(out):
        if f.endswith(".pdf"):
            os.remove(os.path.join(out, f))

    def path(name):
        return os.path.join(out, name)

    w, images = images_pdf(random.Random(2016))
    with open(path("images-classic.pdf"), "wb") as f:
        f.write(images)
    with open(path("images-incremental.pdf"), "wb") as f:
        f.write(incremental(w, images))
    _, text = text_pdf(random.Random(2017))
    with open(path("text-classic.pdf"), "wb") as f:
        f.write(text)

    if shutil.which("qpdf"):
        def qpdf(*args):
            subprocess.run(["qpdf", "--static-id", *args], check=True)

        for base in ("images", "text"):
            src = path(base + "-classic.pdf")
            qpdf("--object-streams=generate", src, path(base + "-objstm.pdf"))
            qpdf("--linearize", src, path(base + "-linearized.pdf"))
        qpdf("--linearize", "--object-streams=generate", path("text-classic.pdf"), path("text-linearized-objstm.pdf"))
        qpdf("--static-aes-iv", "--encrypt", "", "owner", "128", "--use-aes=y", "--",
             path("images-classic.pdf"), path("images-aes128.pdf"))
        qpdf("--static-aes-iv", "--object-streams=generate", "--encrypt", "", "owner", "128", "--use-aes=y", "--",
             path("text-classic.pdf"), path("text-aes128-objstm.pdf"))
        qpdf("--encrypt", "", "owner", "256", "--", path("images-classic.pdf"), path("images-aes256.pdf"))
    else:
        print("make-large-pdfs: qpdf not found; only the base files were written", file=sys.stderr)

    names = sorted(f for f in os.listdir(out) if f.endswith(".pdf"))
    total = sum(os.path.getsize(path(n)) for n in names)
    print("make-large-pdfs: %d files, %.1f MB in %s" % (len(names), total / 1e6, out))


if __name__ == "__main__":
    main()
