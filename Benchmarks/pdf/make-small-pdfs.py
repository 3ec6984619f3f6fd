#!/usr/bin/env python3
"""Writes a folder of small one-page reports for `bubbles bench pdf` (not committed).

    python3 Benchmarks/pdf/make-small-pdfs.py [OUT] [COUNT] [MIN_BYTES MAX_BYTES]
    # default .build-pdfbench/small, 1000 files, 6 000 to 64 000 bytes

With other sizes it fills the larger classes the same way, e.g. 200 files of 64 KB-1 MB and 20 of
1-8 MB (`... .build-pdfbench/medium 200 70000 1000000`, `... .build-pdfbench/big 20 1100000 8000000`).

Shaped like the PDFs of a report library: one page, a Flate content stream, an embedded font
program (incompressible bytes, which set the size), an Info dictionary with title, author,
keywords and dates; sizes spread log-uniformly from 5 KB to 64 KB, so both of the bench's small
classes (under 16 KB, 16-64 KB) are well filled. Every fourth file uses an object stream and a
cross-reference stream (as Chrome and qpdf write them), every sixth carries an XMP packet.
Deterministic: a seeded generator, fixed dates and /ID. Standard library only.
"""
import os
import random
import sys
import zlib

OUT = sys.argv[1] if len(sys.argv) > 1 else ".build-pdfbench/small"
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
MIN_SIZE = int(sys.argv[3]) if len(sys.argv) > 3 else 6000
MAX_SIZE = int(sys.argv[4]) if len(sys.argv) > 4 else 64000
WORDS = ("revenue cost margin quarter region north south east west forecast budget audit payroll "
         "inventory churn growth risk summary detail headcount travel energy").split()


def lit(s):
    return b"(" + s.encode("latin-1").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def stream(d, data):
    return b"<< " + d + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def xmp(title, keywords):
    return ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
            '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">'
            '<dc:title><rdf:Alt><rdf:li xml:lang="x-default">%s</rdf:li></rdf:Alt></dc:title>'
            '<pdf:Keywords>%s</pdf:Keywords></rdf:Description></rdf:RDF></x:xmpmeta>\n'
            '<?xpacket end="w"?>' % (title, keywords)).encode("utf-8")


def report(rng, k):
    title = "Report %04d: %s %s" % (k, rng.choice(WORDS).title(), rng.choice(WORDS))
    keywords = ", ".join(rng.sample(WORDS, 3))
    size = int(MIN_SIZE * (MAX_SIZE / MIN_SIZE) ** rng.random())
    lines = ["BT /F1 11 Tf 72 %d Td (%s) Tj ET" % (760 - 14 * i, " ".join(rng.choice(WORDS) for _ in range(8)))
             for i in range(40)]
    content = zlib.compress("\n".join(lines).encode(), 6)
    font = rng.randbytes(max(200, size - 2500))
    with_xmp = k % 6 == 0
    objs = {
        1: b"<< /Type /Catalog /Pages 2 0 R" + (b" /Metadata 9 0 R" if with_xmp else b"") + b" >>",
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        5: b"<< /Type /Font /Subtype /TrueType /BaseFont /ABCDEF+Report /FontDescriptor 6 0 R >>",
        6: b"<< /Type /FontDescriptor /FontName /ABCDEF+Report /Flags 32 /FontFile2 7 0 R >>",
        8: b"<< /Title " + lit(title) + b" /Author (Bench) /Keywords " + lit(keywords)
           + b" /Producer (make-small-pdfs.py) /CreationDate (D:20240301100000Z) >>",
    }
    streams = {4: stream(b"/Filter /FlateDecode", content), 7: stream(b"/Length1 %d" % len(font), font)}
    if with_xmp:
        streams[9] = stream(b"/Type /Metadata /Subtype /XML", xmp(title, keywords))
    buf = bytearray(b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    fid = b"[<%032X> <%032X>]" % (k, k)
    if k % 4 == 0:
        # Object stream for the dictionaries, cross-reference stream.
        for n, s in sorted(streams.items()):
            offsets[n] = len(buf)
            buf += b"%d 0 obj\n" % n + s + b"\nendobj\n"
        nums = sorted(objs)
        body, pairs = b"", []
        for n in nums:
            pairs.append(b"%d %d" % (n, len(body)))
            body += objs[n] + b"\n"
        hdr = b" ".join(pairs) + b"\n"
        osn = 10
        offsets[osn] = len(buf)
        buf += b"%d 0 obj\n" % osn + stream(b"/Type /ObjStm /N %d /First %d /Filter /FlateDecode" % (len(nums), len(hdr)),
                                             zlib.compress(hdr + body)) + b"\nendobj\n"
        xn = 11
        offsets[xn] = len(buf)
        rows = []
        for n in range(xn + 1):
            if n in objs:
                rows.append(b"\x02" + osn.to_bytes(4, "big") + nums.index(n).to_bytes(2, "big"))
            elif n in offsets:
                rows.append(b"\x01" + offsets[n].to_bytes(4, "big") + b"\x00\x00")
            else:
                rows.append(b"\x00" + b"\x00" * 4 + b"\xff\xff")
        xs = stream(b"/Type /XRef /Size %d /W [1 4 2] /Root 1 0 R /Info 8 0 R /ID %s /Filter /FlateDecode"
                    % (xn + 1, fid), zlib.compress(b"".join(rows)))
        buf += b"%d 0 obj\n" % xn + xs + b"\nendobj\nstartxref\n%d\n%%%%EOF\n" % offsets[xn]
        return bytes(buf)
    allobjs = dict(objs)
    allobjs.update(streams)
    for n in sorted(allobjs):
        offsets[n] = len(buf)
        buf += b"%d 0 obj\n" % n + allobjs[n] + b"\nendobj\n"
    size_n = max(allobjs) + 1
    xref = len(buf)
    buf += b"xref\n0 %d\n0000000000 65535 f\r\n" % size_n
    for n in range(1, size_n):
        buf += (b"%010d 00000 n\r\n" % offsets[n]) if n in offsets else b"0000000000 65535 f\r\n"
    buf += b"trailer\n<< /Size %d /Root 1 0 R /Info 8 0 R /ID %s >>\nstartxref\n%d\n%%%%EOF\n" % (size_n, fid, xref)
    return bytes(buf)


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = random.Random(32)
    for k in range(COUNT):
        with open(os.path.join(OUT, "report-%04d.pdf" % k), "wb") as f:
            f.write(report(rng, k))
    print("make-small-pdfs: %d files in %s" % (COUNT, OUT))


main()
