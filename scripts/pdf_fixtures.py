#!/usr/bin/env python3
"""Builds the PDF fixture corpus for Tests/PDFMetadataTests (called by make-pdf-fixtures.sh).

Deterministic: fixed dates, fixed /ID (qpdf --static-id --static-aes-iv, pikepdf static_id),
fixed salts and IVs in the revision 5/6 files that this script encrypts itself (qpdf draws
those from a random source). Writes the PDFs and expected.json into the output folder.

Usage: pdf_fixtures.py OUTDIR CAIRO_TOOL [GROUP...]
(with groups, only those are written and the rest of expected.json is kept; see GROUPS)
"""
import hashlib
import json
import os
import random
import subprocess
import sys
import zlib

OUT = sys.argv[1]
CAIRO_TOOL = sys.argv[2]
EXPECTED = {}


def expect(name, title=None, keywords=(), pages=None, encrypted=False, warnings=(), error=None,
           pdfinfo="agree", **extra):
    """Records what the Swift reader must report for a fixture.

    warnings: warning kinds that must appear. error: the PDFError kind when reading fails.
    pdfinfo: "agree" (Title, Keywords, Pages match pdfinfo), "agree-pages", "skip",
    "pages differ: <reason>" (Title and Keywords match, Pages do not), or a reason why they differ.
    """
    e = {"title": title, "keywords": list(keywords), "pages": pages, "encrypted": encrypted,
         "warnings": list(warnings), "error": error, "pdfinfo": pdfinfo}
    e.update(extra)
    EXPECTED[name] = e


def path(name):
    return os.path.join(OUT, name)


def save(name, data):
    with open(path(name), "wb") as f:
        f.write(data)


def qpdf(*args):
    subprocess.run(["qpdf", "--static-id", *args], check=True)


# ---------------------------------------------------------------- PDF syntax helpers

def lit(s):
    """A literal string for ASCII text, escaping what must be escaped."""
    b = s.encode("latin-1") if isinstance(s, str) else s
    return b"(" + b.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def hexs(b):
    return b"<" + b.hex().upper().encode() + b">"


def utf16be(s):
    return hexs(b"\xfe\xff" + s.encode("utf-16-be"))


def stream(d, data):
    return b"<< " + d + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


class Writer:
    """Writes objects one by one, remembering offsets, then a classic xref table."""

    def __init__(self, version=b"1.4", junk=b""):
        self.buf = bytearray(junk + b"%PDF-" + version + b"\n%\xe2\xe3\xcf\xd3\n")
        self.offsets = {}

    def obj(self, num, body, gen=0):
        self.offsets[num] = (len(self.buf), gen)
        self.buf += b"%d %d obj\n" % (num, gen) + body + b"\nendobj\n"

    def xref(self, trailer, nums=None, shift=0):
        """Writes an xref table (for `nums`, default all) and trailer; returns its offset."""
        nums = sorted(self.offsets if nums is None else nums)
        off = len(self.buf)
        self.buf += b"xref\n"
        groups = []
        for n in ([0] if 0 not in nums and nums and nums[0] != 0 and shift == 0 and 0 not in self.offsets else []) + nums:
            if groups and groups[-1][-1] + 1 == n:
                groups[-1].append(n)
            else:
                groups.append([n])
        for g in groups:
            self.buf += b"%d %d\n" % (g[0], len(g))
            for n in g:
                if n == 0 and n not in self.offsets:
                    self.buf += b"0000000000 65535 f\r\n"
                else:
                    o, gen = self.offsets[n]
                    self.buf += b"%010d %05d n\r\n" % (o + shift, gen)
        self.buf += b"trailer\n" + trailer + b"\n"
        return off

    def startxref(self, off):
        self.buf += b"startxref\n%d\n%%%%EOF\n" % off

    def bytes(self):
        return bytes(self.buf)


CONTENT = zlib.compress(b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET\n", 9)
FIXED_ID = b"[<00112233445566778899AABBCCDDEEFF> <00112233445566778899AABBCCDDEEFF>]"


def page_objects(w, pages, first=3, content=10, encrypt=None):
    kids = b" ".join(b"%d 0 R" % (first + i) for i in range(pages))
    w.obj(2, b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % pages)
    for i in range(pages):
        w.obj(first + i, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R >>" % content)
    data = CONTENT if encrypt is None else encrypt(CONTENT)
    w.obj(content, stream(b"/Filter /FlateDecode", data))


def xmp_packet(title=None, title_container="Alt", subjects=None, keywords=None, creators=None,
               description=None, doctype=False, producer=None):
    parts = []
    if title is not None:
        parts.append('<dc:title><rdf:%s><rdf:li xml:lang="x-default">%s</rdf:li></rdf:%s></dc:title>'
                     % (title_container, title, title_container))
    if description is not None:
        parts.append('<dc:description><rdf:Alt><rdf:li xml:lang="x-default">%s</rdf:li></rdf:Alt></dc:description>' % description)
    if creators:
        parts.append("<dc:creator><rdf:Seq>%s</rdf:Seq></dc:creator>" % "".join("<rdf:li>%s</rdf:li>" % c for c in creators))
    if subjects:
        parts.append("<dc:subject><rdf:Bag>%s</rdf:Bag></dc:subject>" % "".join("<rdf:li>%s</rdf:li>" % s for s in subjects))
    if keywords is not None:
        parts.append("<pdf:Keywords>%s</pdf:Keywords>" % keywords)
    if producer is not None:
        parts.append("<pdf:Producer>%s</pdf:Producer>" % producer)
    head = '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
    if doctype:
        head += '<!DOCTYPE x [ <!ENTITY a "aaaaaaaaaa"> <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;"> ]>\n'
    body = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" '
            'xmlns:pdf="http://ns.adobe.com/pdf/1.3/">%s</rdf:Description></rdf:RDF></x:xmpmeta>\n'
            '<?xpacket end="w"?>' % "".join(parts))
    return (head + body).encode("utf-8")


def simple_doc(info=None, pages=1, xmp=None, version=b"1.4", catalog_extra=b"", junk=b"",
               xmp_dict=b"/Type /Metadata /Subtype /XML", info_num=20):
    """A classic-xref document: 1 catalog, 2 pages, 3.. page objects, 10 content, 20 Info, 21 XMP."""
    w = Writer(version, junk)
    cat = b"<< /Type /Catalog /Pages 2 0 R"
    if xmp is not None:
        cat += b" /Metadata 21 0 R"
    w.obj(1, cat + catalog_extra + b" >>")
    page_objects(w, pages)
    if info is not None:
        w.obj(info_num, info)
    if xmp is not None:
        w.obj(21, stream(xmp_dict, xmp))
    trailer = b"<< /Size %d /Root 1 0 R" % (max(w.offsets) + 1)
    if info is not None:
        trailer += b" /Info %d 0 R" % info_num
    trailer += b" /ID " + FIXED_ID + b" >>"
    off = w.xref(trailer)
    w.startxref(off)
    return w


def info_dict(title=None, keywords=None, extra=b""):
    d = b"<< /Producer (pdf_fixtures.py) /CreationDate (D:20240301100000+01'00')"
    if title is not None:
        d += b" /Title " + (title if isinstance(title, bytes) else lit(title))
    if keywords is not None:
        d += b" /Keywords " + (keywords if isinstance(keywords, bytes) else lit(keywords))
    return d + extra + b" >>"


# ---------------------------------------------------------------- producers

def cairo():
    subprocess.run([CAIRO_TOOL, path("cairo-basic.pdf")], check=True)
    kw = ["Größe", "Ærø", "日本語"]
    expect("cairo-basic.pdf", title="Quarterly report — Zürich", keywords=kw, pages=2,
           creationDate="2024-03-01T09:00:00Z")
    qpdf("--object-streams=generate", path("cairo-basic.pdf"), path("cairo-objstm.pdf"))
    expect("cairo-objstm.pdf", title="Quarterly report — Zürich", keywords=kw, pages=2)
    qpdf("--linearize", path("cairo-basic.pdf"), path("cairo-linearized.pdf"))
    expect("cairo-linearized.pdf", title="Quarterly report — Zürich", keywords=kw, pages=2)
    qpdf("--linearize", "--object-streams=generate", path("cairo-basic.pdf"), path("cairo-linearized-objstm.pdf"))
    expect("cairo-linearized-objstm.pdf", title="Quarterly report — Zürich", keywords=kw, pages=2)


def base_with_xmp():
    """Info with a title only; keywords only in XMP, so reading them needs the XMP decrypted."""
    w = simple_doc(info=info_dict(title="Encrypted report", extra=b" /Author (Ada)"), pages=3,
                   xmp=xmp_packet(title="Encrypted report", subjects=["alpha", "beta"], keywords="alpha, beta"))
    save("xmp-keywords.pdf", w.bytes())
    expect("xmp-keywords.pdf", title="Encrypted report", keywords=["alpha", "beta"], pages=3,
           pdfinfo="keywords only in XMP (pdf:Keywords, dc:subject); pdfinfo shows the Info dictionary only")


def qpdf_encrypted():
    src = path("xmp-keywords.pdf")
    why = "keywords only in XMP (pdf:Keywords, dc:subject); pdfinfo shows the Info dictionary only"
    variants = [
        ("enc-r2-rc4-40.pdf", ["40"], False),
        ("enc-r3-rc4-128.pdf", ["128", "--use-aes=n"], False),
        ("enc-r4-rc4-128.pdf", ["128", "--use-aes=n", "--force-V4"], False),
        ("enc-r4-aes128.pdf", ["128", "--use-aes=y"], False),
        ("enc-r4-aes128-cleartext-metadata.pdf", ["128", "--use-aes=y", "--cleartext-metadata"], False),
        ("enc-r4-aes128-objstm.pdf", ["128", "--use-aes=y"], True),
    ]
    for name, args, objstm in variants:
        extra = ["--object-streams=generate"] if objstm else []
        qpdf("--allow-weak-crypto", "--static-aes-iv", *extra, "--encrypt", "", "owner-pw", *args, "--",
             src, path(name))
        expect(name, title="Encrypted report", keywords=["alpha", "beta"], pages=3, encrypted=True, pdfinfo=why)
    qpdf("--allow-weak-crypto", "--static-aes-iv", "--encrypt", "user-pw", "owner-pw", "128", "--use-aes=y", "--",
         src, path("enc-user-password.pdf"))
    expect("enc-user-password.pdf", encrypted=True, error="passwordRequired", pdfinfo="needs a password")


# --- revisions 5 and 6, encrypted here with fixed salts (qpdf's are random)

def aes_cbc(key, iv, data, encrypt=True):
    from Crypto.Cipher import AES
    c = AES.new(key, AES.MODE_CBC, iv)
    return c.encrypt(data) if encrypt else c.decrypt(data)


def hash_2b(pw, salt, udata, revision):
    k = hashlib.sha256(pw + salt + udata).digest()
    if revision == 5:
        return k
    i = 0
    while True:
        e = aes_cbc(k[:16], k[16:32], (pw + k + udata) * 64)
        k = [hashlib.sha256, hashlib.sha384, hashlib.sha512][sum(e[:16]) % 3](e).digest()
        i += 1
        if i >= 64 and e[-1] <= i - 32:
            break
    return k[:32]


def aes256_doc(name, revision, encrypt_metadata):
    from Crypto.Cipher import AES
    file_key = hashlib.sha256(b"fixture file key %d" % revision).digest()
    upw, opw = b"", b"owner-pw"
    vs, ks, ovs, oks = b"uvsalt01", b"uksalt01", b"ovsalt01", b"oksalt01"
    u = hash_2b(upw, vs, b"", revision) + vs + ks
    ue = aes_cbc(hash_2b(upw, ks, b"", revision), b"\0" * 16, file_key)
    o = hash_2b(opw, ovs, u, revision) + ovs + oks
    oe = aes_cbc(hash_2b(opw, oks, u, revision), b"\0" * 16, file_key)
    p = -4
    perms = AES.new(file_key, AES.MODE_ECB).encrypt(
        (p & 0xFFFFFFFF).to_bytes(4, "little") + b"\xff" * 4 + (b"T" if encrypt_metadata else b"F") + b"adb" + b"\0" * 4)
    counter = [0]

    def enc(data):
        counter[0] += 1
        iv = hashlib.md5(b"iv %d" % counter[0]).digest()
        pad = 16 - len(data) % 16
        return iv + aes_cbc(file_key, iv, data + bytes([pad]) * pad)

    w = Writer(b"1.7")
    w.obj(1, b"<< /Type /Catalog /Pages 2 0 R /Metadata 21 0 R >>")
    page_objects(w, 2, encrypt=enc)
    w.obj(20, b"<< /Title " + hexs(enc("AES-256 report".encode())) + b" /Author " + hexs(enc(b"Grace")) + b" >>")
    xmp = xmp_packet(title="AES-256 report", subjects=["gamma", "delta"])
    w.obj(21, stream(b"/Type /Metadata /Subtype /XML", enc(xmp) if encrypt_metadata else xmp))
    em = b"" if encrypt_metadata else b" /EncryptMetadata false"
    w.obj(30, b"<< /Filter /Standard /V 5 /R %d /Length 256 /P %d /O %s /U %s /OE %s /UE %s /Perms %s"
          b" /CF << /StdCF << /CFM /AESV3 /AuthEvent /DocOpen /Length 32 >> >> /StmF /StdCF /StrF /StdCF%s >>"
          % (revision, p, hexs(o), hexs(u), hexs(oe), hexs(ue), hexs(perms), em))
    off = w.xref(b"<< /Size 31 /Root 1 0 R /Info 20 0 R /Encrypt 30 0 R /ID " + FIXED_ID + b" >>")
    w.startxref(off)
    save(name, w.bytes())
    expect(name, title="AES-256 report", keywords=["gamma", "delta"], pages=2, encrypted=True,
           pdfinfo="keywords only in XMP (dc:subject); pdfinfo shows the Info dictionary only")


def second_producer():
    """reportlab writes the PDF; pikepdf moves the keywords from Info to XMP only."""
    import pikepdf
    from reportlab.pdfgen import canvas
    c = canvas.Canvas(path("reportlab-xmp-only-keywords.pdf"), invariant=1)
    c.setTitle("Made by reportlab")
    c.setAuthor("ReportLab user")
    c.setKeywords("to be moved")
    for i in range(4):
        c.drawString(72, 720, "page %d" % (i + 1))
        c.showPage()
    c.save()
    with pikepdf.open(path("reportlab-xmp-only-keywords.pdf"), allow_overwriting_input=True) as pdf:
        with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
            meta["dc:subject"] = ["bubbles", "charts; maps", "Bubbles"]
            meta["dc:title"] = "Made by reportlab"
        del pdf.docinfo["/Keywords"]
        pdf.save(path("reportlab-xmp-only-keywords.pdf"), static_id=True)
    expect("reportlab-xmp-only-keywords.pdf", title="Made by reportlab", keywords=["bubbles", "charts", "maps"],
           pages=4, pdfinfo="keywords only in XMP dc:subject (moved there by pikepdf); pdfinfo shows the Info dictionary only")

    # pikepdf alone: no Info dictionary at all, everything in XMP, with object streams.
    pdf = pikepdf.new()
    for _ in range(2):
        pdf.add_blank_page()
    with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
        meta["dc:title"] = "Only in XMP"
        meta["dc:creator"] = ["Ada Lovelace", "Grace Hopper"]
        meta["pdf:Keywords"] = "xmp; only,  keywords"
    pdf.save(path("pikepdf-xmp-only.pdf"), static_id=True, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    expect("pikepdf-xmp-only.pdf", title="Only in XMP", keywords=["xmp", "only", "keywords"], pages=2,
           author="Ada Lovelace, Grace Hopper",
           pdfinfo="title and keywords only in XMP; pdfinfo shows the Info dictionary only")


# ---------------------------------------------------------------- hand-written edge cases

def incremental():
    w = simple_doc(info=info_dict(title="Version one", keywords="old, stale"), pages=2)
    first_xref = int(w.bytes().rsplit(b"startxref\n", 1)[1].split(b"\n")[0])
    w.obj(20, info_dict(title="Version two", keywords="new; fresh"))
    off = w.xref(b"<< /Size 21 /Root 1 0 R /Info 20 0 R /Prev %d /ID %s >>" % (first_xref, FIXED_ID), nums=[20])
    w.startxref(off)
    # A second update adds a page (Count 3) and leaves Info alone.
    w.obj(5, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>")
    w.obj(2, b"<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>")
    off2 = w.xref(b"<< /Size 21 /Root 1 0 R /Info 20 0 R /Prev %d /ID %s >>" % (off, FIXED_ID), nums=[2, 5])
    w.startxref(off2)
    save("hand-incremental.pdf", w.bytes())
    expect("hand-incremental.pdf", title="Version two", keywords=["new", "fresh"], pages=3)


def damaged():
    # startxref a few bytes off.
    w = simple_doc(info=info_dict(title="Offset off", keywords="a,b"), pages=1)
    b = w.bytes()
    head, tail = b.rsplit(b"startxref\n", 1)
    n = int(tail.split(b"\n")[0])
    save("hand-startxref-off.pdf", head + b"startxref\n%d\n%%%%EOF\n" % (n + 3))
    expect("hand-startxref-off.pdf", title="Offset off", keywords=["a", "b"], pages=1, warnings=["startxrefAdjusted"])

    # startxref far past the end of the file: needs the repair scan.
    save("hand-startxref-wild.pdf", head + b"startxref\n%d\n%%%%EOF\n" % 99999)
    expect("hand-startxref-wild.pdf", title="Offset off", keywords=["a", "b"], pages=1, warnings=["xrefRebuilt"])

    # xref entries all wrong: objects are found by the scan.
    w = simple_doc(info=info_dict(title="Bad entries", keywords="x"), pages=2)
    b = w.bytes()
    xi = (b.rindex(b"\nxref\n") + 1)
    tbl = b[xi:].replace(b" 00000 n\r\n", b" 00000 n\r\n")
    lines = tbl.split(b"\r\n")
    fixed = []
    for ln in lines:
        if ln.endswith(b" n") and len(ln) == 18:
            ln = b"%010d" % (int(ln[:10]) + 7) + ln[10:]
        fixed.append(ln)
    save("hand-bad-xref-entries.pdf", b[:xi] + b"\r\n".join(fixed))
    expect("hand-bad-xref-entries.pdf", title="Bad entries", keywords=["x"], pages=2, warnings=["xrefRebuilt"],
           pdfinfo="poppler's xref reconstruction loses the Info dictionary here; our scan recovers it")

    # No xref and no startxref, trailer kept.
    w = simple_doc(info=info_dict(title="No xref", keywords="k1"), pages=1)
    b = w.bytes()
    xi = (b.rindex(b"\nxref\n") + 1)
    ti = b.rindex(b"trailer")
    save("hand-no-xref.pdf", b[:xi] + b[ti:b.rindex(b"startxref")])
    expect("hand-no-xref.pdf", title="No xref", keywords=["k1"], pages=1, warnings=["xrefRebuilt"])

    # Truncated in the middle of the last object: no xref, no trailer.
    w = simple_doc(info=info_dict(title="Truncated", keywords="cut"), pages=2,
                   xmp=xmp_packet(title="Truncated"))
    b = w.bytes()
    save("hand-truncated.pdf", b[:b.index(b"21 0 obj") + 60])
    expect("hand-truncated.pdf", title="Truncated", keywords=["cut"], pages=2, warnings=["xrefRebuilt"],
           pdfinfo="truncated file: no trailer; our reader guesses the Info dictionary")

    # Junk before the header shifts every offset.
    w = simple_doc(info=info_dict(title="Junk first", keywords="j"), pages=1, junk=b"JUNK" * 25 + b"\n")
    # The offsets in that table already include the junk (Writer counts it), so shift them back
    # as a writer unaware of the junk would have written them.
    b = w.bytes()
    xi = (b.rindex(b"\nxref\n") + 1)
    lines = b[xi:].split(b"\r\n")
    lines = [b"%010d" % (int(ln[:10]) - 101) + ln[10:] if ln.endswith(b" n") and len(ln) == 18 else ln for ln in lines]
    body = b[:xi] + b"\r\n".join(lines)
    head, tail = body.rsplit(b"startxref\n", 1)
    save("hand-junk-before-header.pdf", head + b"startxref\n%d\n%%%%EOF\n" % (xi - 101))
    expect("hand-junk-before-header.pdf", title="Junk first", keywords=["j"], pages=1, warnings=["header"],
           pdfinfo="poppler does not shift offsets by the junk before the header and loses the Info dictionary")

    # /Prev pointing at itself.
    w = simple_doc(info=info_dict(title="Prev loop", keywords="loop"), pages=1)
    b = w.bytes()
    xi = (b.rindex(b"\nxref\n") + 1)
    save("hand-prev-loop.pdf", b.replace(b"/Root 1 0 R", b"/Root 1 0 R /Prev %d" % xi))
    expect("hand-prev-loop.pdf", title="Prev loop", keywords=["loop"], pages=1, warnings=["brokenXrefSection"])

    # Wrong stream /Length on the XMP stream; Info has no keywords.
    w = simple_doc(info=info_dict(title="Wrong length"), pages=1, xmp=xmp_packet(keywords="len, gth"))
    b = w.bytes()
    i = b.index(b"/Subtype /XML /Length ")
    j = b.index(b" >>", i)
    n = int(b[i + len(b"/Subtype /XML /Length "):j])
    bad = b[:i] + b"/Subtype /XML /Length %d" % (n - 40) + b[j:]
    save("hand-wrong-length.pdf", fix_xref(bad))
    expect("hand-wrong-length.pdf", title="Wrong length", keywords=["len", "gth"], pages=1, warnings=["streamLength"],
           pdfinfo="keywords only in XMP; pdfinfo shows the Info dictionary only")


def junk_prefix():
    """Bytes put before finished files (a web server's response header, a mail gateway's banner):
    every offset counts from the %PDF- header."""
    http = b"HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Length: 4037\r\n\r\n"
    with open(path("cairo-objstm.pdf"), "rb") as f:
        objstm = f.read()
    save("hand-junk-objstm.pdf", http + objstm)
    kw = ["Größe", "Ærø", "日本語"]
    expect("hand-junk-objstm.pdf", title="Quarterly report — Zürich", keywords=kw, pages=2, warnings=["header"])
    # The same, with startxref counted from the first byte but the xref stream's entries from the
    # header: the objects are not where the entries say, and the repair scan (which starts while
    # the object stream holding the catalog is being resolved) must still expand that stream.
    head, tail = objstm.rsplit(b"startxref\n", 1)
    n = int(tail.split(b"\n")[0])
    save("hand-junk-mixed-offsets.pdf", http + head + b"startxref\n%d\n%%%%EOF\n" % (n + len(http)))
    expect("hand-junk-mixed-offsets.pdf", title="Quarterly report — Zürich", keywords=kw, pages=2,
           warnings=["header", "xrefRebuilt"])
    with open(path("hand-incremental.pdf"), "rb") as f:
        inc = f.read()
    banner = b"X-Gateway: scanned, no threat found\n\n"
    save("hand-junk-incremental.pdf", banner + inc)
    expect("hand-junk-incremental.pdf", title="Version two", keywords=["new", "fresh"], pages=3, warnings=["header"])


COUNT_WHY = ("pages differ: pdfinfo (poppler 22.12) prints the root's /Count; pikepdf and pypdf count the "
             "pages, and so do we")


def page_counts():
    """Page trees whose root /Count disagrees with the leaves (12 pages each)."""
    def leaves(w, parent, first, n):
        for i in range(n):
            w.obj(first + i, b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] >>" % parent)
        return [first + i for i in range(n)]

    def refs(nums):
        return b" ".join(b"%d 0 R" % n for n in nums)

    def doc(name, build, title):
        w = Writer()
        w.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
        build(w)
        w.obj(90, info_dict(title=title))
        off = w.xref(b"<< /Size 91 /Root 1 0 R /Info 90 0 R /ID " + FIXED_ID + b" >>")
        w.startxref(off)
        save(name, w.bytes())

    # Flat: twelve pages under the root, which says 5 (a tool appended pages, kept the count).
    def flat(w):
        w.obj(2, b"<< /Type /Pages /Kids [" + refs(leaves(w, 2, 10, 12)) + b"] /Count 5 >>")
    doc("hand-count-flat.pdf", flat, "Count five, twelve pages")
    expect("hand-count-flat.pdf", title="Count five, twelve pages", pages=12, warnings=["pageCount"], pdfinfo=COUNT_WHY)

    # Nested, as many kids as /Count: three nodes of four pages, the root says 3.
    def nested(w):
        for k in range(3):
            w.obj(3 + k, b"<< /Type /Pages /Parent 2 0 R /Kids [" + refs(leaves(w, 3 + k, 10 + 4 * k, 4))
                  + b"] /Count 4 >>")
        w.obj(2, b"<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>")
    doc("hand-count-nested.pdf", nested, "Count three, twelve pages")
    expect("hand-count-nested.pdf", title="Count three, twelve pages", pages=12, warnings=["pageCount"], pdfinfo=COUNT_WHY)

    # Overstated: two nodes of six pages, the root says 20 (pages were deleted).
    def over(w):
        w.obj(3, b"<< /Type /Pages /Parent 2 0 R /Kids [" + refs(leaves(w, 3, 10, 6)) + b"] /Count 6 >>")
        w.obj(4, b"<< /Type /Pages /Parent 2 0 R /Kids [" + refs(leaves(w, 4, 16, 6)) + b"] /Count 6 >>")
        w.obj(2, b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 20 >>")
    doc("hand-count-over.pdf", over, "Count twenty, twelve pages")
    expect("hand-count-over.pdf", title="Count twenty, twelve pages", pages=12, warnings=["pageCount"], pdfinfo=COUNT_WHY)

    # A kid that loops back to the root, and a page listed twice: each object is counted once.
    def loop(w):
        w.obj(3, b"<< /Type /Pages /Parent 2 0 R /Kids [" + refs(leaves(w, 3, 10, 6)) + b" 2 0 R 10 0 R] /Count 8 >>")
        w.obj(4, b"<< /Type /Pages /Parent 2 0 R /Kids [" + refs(leaves(w, 4, 16, 6)) + b"] /Count 6 >>")
        w.obj(2, b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 5 >>")
    doc("hand-count-loop.pdf", loop, "Count five, a loop")
    expect("hand-count-loop.pdf", title="Count five, a loop", pages=12, warnings=["pageCount"],
           pdfinfo=COUNT_WHY + "; pikepdf refuses the loop")

    # A consistent nested tree: the kids' counts are summed, no walk and no warning.
    def good(w):
        for k in range(3):
            w.obj(3 + k, b"<< /Type /Pages /Parent 2 0 R /Kids [" + refs(leaves(w, 3 + k, 10 + 4 * k, 4))
                  + b"] /Count 4 >>")
        w.obj(2, b"<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 12 >>")
    doc("hand-count-consistent.pdf", good, "Twelve pages")
    expect("hand-count-consistent.pdf", title="Twelve pages", pages=12)


def incremental_without_info():
    """The newest trailer has no /Info: the document has none (the older revision's is not used)."""
    w = simple_doc(info=info_dict(title="Old revision", keywords="old"), pages=1)
    first_xref = int(w.bytes().rsplit(b"startxref\n", 1)[1].split(b"\n")[0])
    w.obj(5, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>")
    w.obj(2, b"<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>")
    off = w.xref(b"<< /Size 21 /Root 1 0 R /Prev %d /ID %s >>" % (first_xref, FIXED_ID), nums=[2, 5])
    w.startxref(off)
    save("hand-incremental-no-info.pdf", w.bytes())
    expect("hand-incremental-no-info.pdf", pages=2)


def fix_xref(b):
    """Recomputes the classic xref offsets of a file edited in place (objects scanned)."""
    import re
    offs = {}
    for m in re.finditer(rb"(?m)^(\d+) (\d+) obj", b):
        offs[int(m.group(1))] = m.start()
    xi = (b.rindex(b"\nxref\n") + 1)
    ti = b.rindex(b"trailer")
    nums = sorted(offs)
    out = bytearray(b[:xi])
    out += b"xref\n0 %d\n" % (nums[-1] + 1)
    for n in range(nums[-1] + 1):
        out += (b"%010d 00000 n\r\n" % offs[n]) if n in offs else b"0000000000 65535 f\r\n"
    out += b[ti:b.rindex(b"startxref")]
    out += b"startxref\n%d\n%%%%EOF\n" % xi
    return bytes(out)


def strings():
    save("hand-utf16be.pdf", simple_doc(info=info_dict(title=utf16be("Überblick 2024"),
                                                       keywords=utf16be("Ökonomie, Straße; 東京\r\nΣ")), pages=1).bytes())
    expect("hand-utf16be.pdf", title="Überblick 2024", keywords=["Ökonomie", "Straße", "東京", "Σ"], pages=1)

    le = hexs(b"\xff\xfe" + "Résumé, naïve".encode("utf-16-le"))
    save("hand-utf16le.pdf", simple_doc(info=info_dict(title=hexs(b"\xff\xfe" + "Little endian".encode("utf-16-le")),
                                                       keywords=le), pages=1).bytes())
    expect("hand-utf16le.pdf", title="Little endian", keywords=["Résumé", "naïve"], pages=1)

    # Octal escapes, line continuation, escaped parens, balanced parens, \r\n inside.
    title = b"(Caf\\351 \\(draft\\) \\\r\nnumber \\0611 (nested))"
    kw = b"(one\\054 two\\073three\\nfour\\\\five)"
    save("hand-octal-escapes.pdf", simple_doc(info=info_dict(title=title, keywords=kw), pages=1).bytes())
    expect("hand-octal-escapes.pdf", title="Café (draft) number 11 (nested)",
           keywords=["one", "two", "three", "four\\five"], pages=1)

    save("hand-hex-strings.pdf", simple_doc(info=info_dict(title=b"<48 65 78 20 74 69 74 6C 65>",
                                                           keywords=b"<6865782C6F6464 2C61 6>"), pages=1).bytes())
    expect("hand-hex-strings.pdf", title="Hex title", keywords=["hex", "odd", "a`"], pages=1)

    save("hand-pdfdoc.pdf", simple_doc(info=info_dict(title=b"(\x80 Bullet \x84 dash \xa0 euro \xe9t\xe9)",
                                                      keywords=b"(\x8dquoted\x8e, \x93x)"), pages=1).bytes())
    expect("hand-pdfdoc.pdf", title="• Bullet — dash € euro été", keywords=["“quoted”", "ﬁx"], pages=1)

    save("hand-utf8-nobom.pdf", simple_doc(info=info_dict(title=lit("Gr\u00fc\u00dfe".encode("utf-8")),
                                                          keywords=lit("na\u00efve, caf\u00e9".encode("utf-8"))),
                                           pages=1).bytes())
    expect("hand-utf8-nobom.pdf", title="Grüße", keywords=["naïve", "café"], pages=1,
           pdfinfo="UTF-8 without a byte-order mark: poppler reads it as PDFDocEncoding (mojibake); we detect UTF-8")

    # Full-width and ideographic separators (CJK input methods type these): split like , and ;.
    save("hand-fullwidth-separators.pdf", simple_doc(info=info_dict(title=utf16be("関西の報告"),
                                                                    keywords=utf16be("東京，大阪；名古屋、札幌, Kobe")),
                                                     pages=1).bytes())
    expect("hand-fullwidth-separators.pdf", title="関西の報告", keywords=["東京", "大阪", "名古屋", "札幌", "Kobe"], pages=1)

    save("hand-keyword-dupes.pdf", simple_doc(info=info_dict(title="Dupes",
                                                             keywords="PDF, pdf; Swift\n\nswift ,  , Report;"),
                                              pages=1).bytes())
    expect("hand-keyword-dupes.pdf", title="Dupes", keywords=["PDF", "Swift", "Report"], pages=1,
           )

    save("hand-catalog-version.pdf", simple_doc(info=info_dict(title="Version"), pages=1,
                                                catalog_extra=b" /Version /1.7").bytes())
    expect("hand-catalog-version.pdf", title="Version", pages=1, version="1.7")


def hostile():
    # Reference loop: /Info 20 0 R -> 20 is `22 0 R`, 22 is `20 0 R`.
    w = Writer()
    w.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    page_objects(w, 1)
    w.obj(20, b"22 0 R")
    w.obj(22, b"20 0 R")
    off = w.xref(b"<< /Size 23 /Root 1 0 R /Info 20 0 R >>")
    w.startxref(off)
    save("hand-reference-loop.pdf", w.bytes())
    expect("hand-reference-loop.pdf", pages=1, warnings=["unreadableInfo"], pdfinfo="agree-pages")

    # Pages reference loop: /Pages 2 0 R where 2 is `1 0 R`... and the catalog is 1.
    w = Writer()
    w.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    w.obj(2, b"3 0 R")
    w.obj(3, b"2 0 R")
    w.obj(20, info_dict(title="Pages loop"))
    off = w.xref(b"<< /Size 21 /Root 1 0 R /Info 20 0 R >>")
    w.startxref(off)
    save("hand-pages-loop.pdf", w.bytes())
    expect("hand-pages-loop.pdf", title="Pages loop", warnings=["pageCount"], pdfinfo="skip")

    # Decompression bomb: a doubly deflated XMP stream that inflates to 256 MiB.
    inner = zlib.compress(b"\0" * (256 << 20), 9)
    bomb = zlib.compress(inner, 9)
    w = simple_doc(info=info_dict(title="Bomb", keywords="boom"), pages=1, xmp=bomb,
                   xmp_dict=b"/Type /Metadata /Subtype /XML /Filter [/FlateDecode /FlateDecode]")
    save("hand-decompression-bomb.pdf", w.bytes())
    expect("hand-decompression-bomb.pdf", title="Bomb", keywords=["boom"], pages=1, warnings=["unreadableXMP"])

    # Deep nesting inside the Info dictionary.
    deep = b"[" * 5000 + b"]" * 5000
    w = simple_doc(info=b"<< /Title (Deep) /Junk " + deep + b" >>", pages=1)
    save("hand-deep-nesting.pdf", w.bytes())
    expect("hand-deep-nesting.pdf", pages=1, warnings=["unreadableInfo"], pdfinfo="agree-pages")

    # XMP with a DOCTYPE and entities: refused, not expanded.
    w = simple_doc(info=info_dict(), pages=1, xmp=xmp_packet(title="&b;", doctype=True))
    save("hand-xmp-entities.pdf", w.bytes())
    expect("hand-xmp-entities.pdf", pages=1, warnings=["xmpEntitiesRefused"], pdfinfo="agree-pages")

    # Not a PDF; an empty file.
    rnd = random.Random(6)
    save("garbage.pdf", bytes(rnd.randrange(256) for _ in range(2048)))
    expect("garbage.pdf", error="notAPDF", pdfinfo="skip")
    save("empty.pdf", b"")
    expect("empty.pdf", error="notAPDF", pdfinfo="skip")


def xref_streams():
    """A hand-made xref stream (PNG Up predictor, /Index with two ranges) and object stream,
    and a hybrid file (classic table + /XRefStm)."""
    objstm_objs = {20: info_dict(title="From an object stream", keywords="objstm, xrefstm"),
                   2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"}
    header = b" ".join(b"%d %d" % (n, 0) for n in [])
    body = b""
    pairs = []
    for n, o in objstm_objs.items():
        pairs.append(b"%d %d" % (n, len(body)))
        body += o + b"\n"
    hdr = b" ".join(pairs) + b"\n"
    objstm_data = zlib.compress(hdr + body)

    def build(hybrid, free_entries=False):
        w = Writer(b"1.5")
        w.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
        w.obj(3, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>")
        w.obj(7, stream(b"/Type /ObjStm /N 2 /First %d /Filter /FlateDecode" % len(hdr), objstm_data))
        entries = {}
        for n in (1, 3, 7):
            entries[n] = (1, w.offsets[n][0], 0)
        entries[2] = (2, 7, 1)
        entries[20] = (2, 7, 0)
        xref_num = 8
        xoff = len(w.buf)
        entries[xref_num] = (1, xoff, 0)
        entries[0] = (0, 0, 65535)
        ranges = [(0, 4), (7, 2), (20, 1)]
        rows = []
        for start, count in ranges:
            for n in range(start, start + count):
                t, f2, f3 = entries.get(n, (0, 0, 0))
                rows.append(bytes([t]) + f2.to_bytes(2, "big") + f3.to_bytes(2, "big"))
        # PNG Up predictor, Columns 5.
        prev = bytes(5)
        raw = b""
        for r in rows:
            raw += b"\x02" + bytes((r[i] - prev[i]) & 0xFF for i in range(5))
            prev = r
        data = zlib.compress(raw)
        idx = b" ".join(b"%d %d" % rc for rc in ranges)
        d = (b"/Type /XRef /Size 21 /W [1 2 2] /Index [" + idx + b"] /Root 1 0 R /Info 20 0 R /ID " + FIXED_ID +
             b" /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 5 >>")
        if not hybrid:
            w.obj(xref_num, stream(d, data))
            w.startxref(xoff)
            return w.bytes()
        # Hybrid: the stream is only a companion; a classic table lists the plain objects.
        w.obj(xref_num, stream(d, data))
        trailer = b"<< /Size 21 /Root 1 0 R /Info 20 0 R /XRefStm %d /ID %s >>" % (xoff, FIXED_ID)
        if free_entries:
            # As PDF 32000 7.5.8.4 describes hybrid files for PDF 1.4 readers: the table covers
            # every number and marks the objects in object streams free.
            toff = len(w.buf)
            w.buf += b"xref\n0 21\n"
            for n in range(21):
                w.buf += (b"%010d 00000 n\r\n" % w.offsets[n][0]) if n in (1, 3, 7) else b"0000000000 65535 f\r\n"
            w.buf += b"trailer\n" + trailer + b"\n"
            w.startxref(toff)
            return w.bytes()
        toff = w.xref(trailer, nums=[1, 3, 7])
        w.startxref(toff)
        return w.bytes()

    save("hand-xref-stream.pdf", build(False))
    expect("hand-xref-stream.pdf", title="From an object stream", keywords=["objstm", "xrefstm"], pages=1)
    save("hand-hybrid.pdf", build(True))
    expect("hand-hybrid.pdf", title="From an object stream", keywords=["objstm", "xrefstm"], pages=1)
    save("hand-hybrid-free-entries.pdf", build(True, free_entries=True))
    expect("hand-hybrid-free-entries.pdf", title="From an object stream", keywords=["objstm", "xrefstm"], pages=1,
           pdfinfo="hybrid file whose table marks the object-stream objects free: poppler and qpdf keep the free "
                   "entries and lose the page tree and Info; pypdf and we take them from /XRefStm")


def xmp_cases():
    # Indirect /Length on the XMP stream; title in an rdf:Bag (a known producer bug); keywords with ';'.
    w = Writer()
    w.obj(1, b"<< /Type /Catalog /Pages 2 0 R /Metadata 21 0 R >>")
    page_objects(w, 1)
    x = xmp_packet(title="Bagged title", title_container="Bag", keywords="one; two;three",
                   creators=["Ann", "Bob"], description="About XMP")
    w.obj(21, b"<< /Type /Metadata /Subtype /XML /Length 22 0 R >>\nstream\n" + x + b"\nendstream")
    w.obj(22, b"%d" % len(x))
    off = w.xref(b"<< /Size 23 /Root 1 0 R >>")
    w.startxref(off)
    save("hand-xmp-indirect-length.pdf", w.bytes())
    expect("hand-xmp-indirect-length.pdf", title="Bagged title", keywords=["one", "two", "three"], pages=1,
           author="Ann, Bob", subject="About XMP",
           pdfinfo="no Info dictionary: title and keywords only in XMP")


def xmp_bag_order():
    """A dc:subject bag whose first item is qualified (rdf:parseType="Resource" with rdf:value, as
    XMP writers do for an item with qualifiers) and whose third is a nested rdf:Description: the
    keywords keep the bag's order, no item dropped or moved."""
    items = ('<rdf:li rdf:parseType="Resource"><rdf:value>anchor</rdf:value><xmpidq:Scheme>tag</xmpidq:Scheme></rdf:li>'
             '<rdf:li>bag one</rdf:li>'
             '<rdf:li><rdf:Description rdf:value="bag two"/></rdf:li>'
             '<rdf:li>Anchor</rdf:li>')
    x = ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
         '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
         '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" '
         'xmlns:xmpidq="http://ns.adobe.com/xmp/Identifier/qual/1.0/">'
         '<dc:subject><rdf:Bag>%s</rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta>\n'
         '<?xpacket end="w"?>' % items).encode("utf-8")
    save("hand-xmp-bag-order.pdf", simple_doc(info=info_dict(title="Bag order"), pages=1, xmp=x).bytes())
    expect("hand-xmp-bag-order.pdf", title="Bag order", keywords=["anchor", "bag one", "bag two"], pages=1,
           pdfinfo="keywords only in XMP (dc:subject); pdfinfo shows the Info dictionary only")


# ---------------------------------------------------------------- issue 32: peers' test-suite cases

PAD = bytes([0x28, 0xBF, 0x4E, 0x5E, 0x4E, 0x75, 0x8A, 0x41, 0x64, 0x00, 0x4E, 0x56, 0xFF, 0xFA, 0x01, 0x08,
             0x2E, 0x2E, 0x00, 0xB6, 0xD0, 0x68, 0x3E, 0x80, 0x2F, 0x0C, 0xA9, 0xFE, 0x64, 0x53, 0x69, 0x7A])
FIRST_ID = bytes.fromhex("00112233445566778899AABBCCDDEEFF")


def rc4(key, data):
    s = list(range(256))
    j = 0
    for i in range(256):
        j = (j + s[i] + key[i % len(key)]) & 0xFF
        s[i], s[j] = s[j], s[i]
    out = bytearray()
    i = j = 0
    for b in data:
        i = (i + 1) & 0xFF
        j = (j + s[i]) & 0xFF
        s[i], s[j] = s[j], s[i]
        out.append(b ^ s[(s[i] + s[j]) & 0xFF])
    return bytes(out)


class StandardRC4:
    """The standard security handler, revisions 2-4, RC4 (ISO 32000-2 algorithms 1, 2, 4, 5) with a
    user password. /O is fixed bytes (only an input of the key hash when opening with the user
    password). `object_key_bytes`: the file key as object keys are made from it (Acrobat pads a
    short key to 16 bytes under /V 4)."""

    def __init__(self, revision, bits, user_pw=b"", p=-4, pad_key_to=None):
        self.r = revision
        n = bits // 8
        self.o = hashlib.md5(b"fixture /O").digest() + hashlib.md5(b"fixture /O 2").digest()
        self.p = p
        h = hashlib.md5((user_pw + PAD)[:32] + self.o + (p & 0xFFFFFFFF).to_bytes(4, "little") + FIRST_ID).digest()
        if revision >= 3:
            for _ in range(50):
                h = hashlib.md5(h[:n]).digest()
        key = h[:n]
        if revision == 2:
            self.u = rc4(key, PAD)
        else:
            x = rc4(key, hashlib.md5(PAD + FIRST_ID).digest())
            for i in range(1, 20):
                x = rc4(bytes(b ^ i for b in key), x)
            self.u = x + hashlib.md5(b"fixture /U").digest()
        self.key = key + bytes(max(0, (pad_key_to or 0) - len(key)))

    def enc(self, num, data, gen=0):
        k = hashlib.md5(self.key + num.to_bytes(3, "little") + gen.to_bytes(2, "little")).digest()
        return rc4(k[:min(len(self.key) + 5, 16)], data)

    def entries(self):
        return b"/O %s /U %s /P %d" % (hexs(self.o), hexs(self.u), self.p)


def encrypted_doc(name, encrypt_dict, sec=None, strings=True, streams=True, extra_objects=(), catalog_extra=b"",
                  xmp=None, direct=False):
    """A one-page document with Info (20), optional XMP (21), the /Encrypt dictionary as object 30
    (`direct`: written into the trailer instead); strings and streams encrypted with `sec` when
    `strings` / `streams` say so."""
    def s_(num, text):
        b = text.encode("latin-1")
        return hexs(sec.enc(num, b)) if (sec and strings) else lit(b)

    def st(num, d, data):
        return stream(d, sec.enc(num, data) if (sec and streams) else data)

    w = Writer(b"1.6")
    cat = b"<< /Type /Catalog /Pages 2 0 R" + (b" /Metadata 21 0 R" if xmp is not None else b"") + catalog_extra + b" >>"
    w.obj(1, cat)
    w.obj(2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
    w.obj(3, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 10 0 R >>")
    w.obj(10, st(10, b"/Filter /FlateDecode", CONTENT))
    for num, body in extra_objects:
        w.obj(num, body)
    w.obj(20, b"<< /Title " + s_(20, name_title(name)) + b" /Keywords " + s_(20, "secret, sauce")
          + b" /Producer " + s_(20, "pdf_fixtures.py") + b" >>")
    if xmp is not None:
        w.obj(21, st(21, b"/Type /Metadata /Subtype /XML", xmp))
    if not direct:
        w.obj(30, encrypt_dict)
    off = w.xref(b"<< /Size 31 /Root 1 0 R /Info 20 0 R /Encrypt " + (encrypt_dict if direct else b"30 0 R")
                 + b" /ID " + FIXED_ID + b" >>")
    w.startxref(off)
    save(name, w.bytes())


def name_title(name):
    return "Case " + name[len("hand-"):-len(".pdf")]


def peers_suites():
    """Damage and encryption that PDF tools' own test suites keep (issue 32)."""
    # An indirect /CF (and an indirect crypt filter inside it), RC4-128 under /V 4.
    sec = StandardRC4(4, 128)
    encrypted_doc("hand-enc-indirect-cf.pdf",
                  b"<< /Filter /Standard /V 4 /R 4 /Length 128 " + sec.entries() + b" /CF 31 0 R /StmF /StdCF /StrF /StdCF >>",
                  sec, extra_objects=[(31, b"<< /StdCF 32 0 R >>"), (32, b"<< /CFM /V2 /Length 16 /AuthEvent /DocOpen >>")])
    expect("hand-enc-indirect-cf.pdf", title="Case enc-indirect-cf", keywords=["secret", "sauce"], pages=1, encrypted=True)

    # Only embedded files are encrypted (/EFF), strings and streams are Identity; the user
    # password is not empty (/AuthEvent /EFOpen: asked for when an attachment is opened).
    sec = StandardRC4(4, 128, user_pw=b"attachments")
    ef = hashlib.sha256(b"an encrypted attachment").digest() * 4
    encrypted_doc("hand-enc-eff-only.pdf",
                  b"<< /Filter /Standard /V 4 /R 4 /Length 128 " + sec.entries()
                  + b" /CF << /StdCF << /CFM /AESV2 /AuthEvent /EFOpen /Length 16 >> >>"
                  b" /StmF /Identity /StrF /Identity /EFF /StdCF >>",
                  None, extra_objects=[(40, b"<< /Type /Filespec /F (a.txt) /UF (a.txt) /EF << /F 41 0 R >> >>"),
                                       (41, stream(b"/Type /EmbeddedFile", ef))],
                  catalog_extra=b" /Names << /EmbeddedFiles << /Names [(a.txt) 40 0 R] >> >>")
    expect("hand-enc-eff-only.pdf", title="Case enc-eff-only", keywords=["secret", "sauce"], pages=1, encrypted=True)

    # Strings not encrypted (/StrF /Identity), streams RC4, a user password, no object streams:
    # the page tree and Info read without the password, the XMP stream does not.
    sec = StandardRC4(4, 128, user_pw=b"streams only")
    encrypted_doc("hand-enc-strf-identity.pdf",
                  b"<< /Filter /Standard /V 4 /R 4 /Length 128 " + sec.entries()
                  + b" /CF << /StdCF << /CFM /V2 /Length 16 >> >> /StmF /StdCF /StrF /Identity >>",
                  sec, strings=False, xmp=xmp_packet(title="Hidden in XMP"))
    expect("hand-enc-strf-identity.pdf", title="Case enc-strf-identity", keywords=["secret", "sauce"], pages=1,
           encrypted=True, warnings=["passwordRequired", "unreadableXMP"])

    # RC4 with a 40-bit key under /V 4 (Acrobat Fill & Sign): Acrobat pads the key to 16 bytes.
    sec = StandardRC4(4, 40, pad_key_to=16)
    encrypted_doc("hand-enc-v4-rc4-40.pdf",
                  b"<< /Filter /Standard /V 4 /R 4 /Length 40 " + sec.entries()
                  + b" /CF << /StdCF << /CFM /V2 /Length 5 /AuthEvent /DocOpen >> >> /StmF /StdCF /StrF /StdCF >>", sec)
    expect("hand-enc-v4-rc4-40.pdf", title="Case enc-v4-rc4-40", keywords=["secret", "sauce"], pages=1, encrypted=True,
           pdfinfo="poppler and pypdf decrypt with the unpadded 5-byte key (noise), qpdf refuses the password; "
                   "Acrobat and pdf.js pad the key to 16 bytes")

    # /V 2 /R 3 with a 128-bit key and no usable /Length: missing, or misspelt.
    sec = StandardRC4(3, 128)
    encrypted_doc("hand-enc-r3-no-length.pdf", b"<< /Filter /Standard /V 2 /R 3 " + sec.entries() + b" >>", sec)
    expect("hand-enc-r3-no-length.pdf", title="Case enc-r3-no-length", keywords=["secret", "sauce"], pages=1,
           encrypted=True, pdfinfo="poppler and pypdf take a missing /Length for 40 bits and refuse the password; qpdf tries 128 bits")
    encrypted_doc("hand-enc-r3-misspelt-length.pdf", b"<< /Filter /Standard /V 2 /R 3 /Lenght 128 " + sec.entries() + b" >>", sec)
    expect("hand-enc-r3-misspelt-length.pdf", title="Case enc-r3-misspelt-length", keywords=["secret", "sauce"], pages=1,
           encrypted=True, pdfinfo="poppler and pypdf take a missing /Length for 40 bits and refuse the password; qpdf tries 128 bits")

    # /Pages pointing straight at a page.
    w = Writer()
    w.obj(1, b"<< /Type /Catalog /Pages 3 0 R >>")
    w.obj(3, b"<< /Type /Page /MediaBox [0 0 612 792] /Contents 10 0 R >>")
    w.obj(10, stream(b"/Filter /FlateDecode", CONTENT))
    w.obj(20, info_dict(title="Pages is a page", keywords="single"))
    w.startxref(w.xref(b"<< /Size 21 /Root 1 0 R /Info 20 0 R /ID " + FIXED_ID + b" >>"))
    save("hand-pages-is-page.pdf", w.bytes())
    expect("hand-pages-is-page.pdf", title="Pages is a page", keywords=["single"], pages=1, warnings=["pageCount"],
           pdfinfo="agree")

    # A root /Count that is not a number, and one that is missing: the leaves are counted.
    for name, count in [("hand-count-not-number.pdf", b"/Count /Three"), ("hand-count-missing.pdf", b"")]:
        w = Writer()
        w.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
        w.obj(2, b"<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] " + count + b" >>")
        for k in range(3):
            w.obj(3 + k, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>")
        w.obj(20, info_dict(title="Three pages, no count", keywords="count"))
        w.startxref(w.xref(b"<< /Size 21 /Root 1 0 R /Info 20 0 R /ID " + FIXED_ID + b" >>"))
        save(name, w.bytes())
        expect(name, title="Three pages, no count", keywords=["count"], pages=3, warnings=["pageCount"],
               pdfinfo="poppler stops when the root /Count is not a number; qpdf and pypdf count the leaves, as we do")

    # A damaged catalog beside an intact Info dictionary: junk inside the catalog's dictionary,
    # which runs into endobj (read up to the damage: a catalog without /Pages); and a catalog
    # object that is no dictionary at all, with no other catalog in the file (Info alone).
    w = simple_doc(info=info_dict(title="Catalog damaged", keywords="salvage, info"), pages=2)
    good = b"<< /Type /Catalog /Pages 2 0 R >>"
    bad = b"<< /Type /Catalog /Pa\x00\xff\xfe ]] junk"
    save("hand-damaged-catalog.pdf", w.bytes().replace(good, bad + b" " * (len(good) - len(bad)), 1))
    expect("hand-damaged-catalog.pdf", title="Catalog damaged", keywords=["salvage", "info"], pages=None,
           warnings=["unterminatedObject", "pageCount"],
           pdfinfo="the catalog has no /Pages left: poppler finds 0 pages and pdfinfo stops; pypdf reads the Info as we do")
    w = simple_doc(info=info_dict(title="Catalog lost", keywords="salvage, info"), pages=2)
    save("hand-catalog-not-a-dictionary.pdf", w.bytes().replace(good, b"(not a catalog)".ljust(len(good)), 1))
    expect("hand-catalog-not-a-dictionary.pdf", title="Catalog lost", keywords=["salvage", "info"], pages=None,
           warnings=["xrefRebuilt", "unreadableCatalog"],
           pdfinfo="no catalog: poppler and qpdf give up; the Info dictionary is intact and read alone")

    # An object stream that decodes to 9 MiB (over the old 8 MiB cap), catalog and Info inside:
    # early, and (second file) Info after the filler.
    filler = b"[" + b"0 " * (9 << 19) + b"]"
    for name, info_first in [("hand-objstm-large.pdf", True), ("hand-objstm-large-info-last.pdf", False)]:
        objs = [(1, b"<< /Type /Catalog /Pages 2 0 R >>"), (2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
                (3, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>")]
        info = (20, info_dict(title="Large object stream", keywords="objstm, large"))
        objs += [info, (25, filler)] if info_first else [(25, filler), info]
        body, pairs = b"", []
        for n, o in objs:
            pairs.append(b"%d %d" % (n, len(body)))
            body += o + b"\n"
        hdr = b" ".join(pairs) + b"\n"
        w = Writer(b"1.5")
        w.obj(7, stream(b"/Type /ObjStm /N %d /First %d /Filter /FlateDecode" % (len(objs), len(hdr)),
                        zlib.compress(hdr + body, 9)))
        xoff = len(w.buf)
        rows = [(0, 0, 65535)] + [(0, 0, 0)] * 6 + [(1, w.offsets[7][0], 0), (1, xoff, 0)]
        idx = {n: k for k, (n, _) in enumerate(objs)}
        rows += [(0, 0, 0)] * (26 - len(rows))
        for n, k in idx.items():
            rows[n] = (2, 7, k)
        raw = b"".join(bytes([t]) + f2.to_bytes(4, "big") + f3.to_bytes(2, "big") for t, f2, f3 in rows)
        w.obj(8, stream(b"/Type /XRef /Size 26 /W [1 4 2] /Root 1 0 R /Info 20 0 R /ID " + FIXED_ID
                        + b" /Filter /FlateDecode", zlib.compress(raw)))
        w.startxref(xoff)
        save(name, w.bytes())
        expect(name, title="Large object stream", keywords=["objstm", "large"], pages=1)


def page_tree_damage():
    """Page trees as damaged files in pdf.js's and qpdf's test suites have them: a /Kids that is
    a reference to the one page instead of an array, and kids that cannot be read at all."""
    def doc(name, root, objs, title):
        w = Writer()
        w.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
        w.obj(2, root)
        for n, body in objs:
            w.obj(n, body)
        w.obj(20, info_dict(title=title, keywords="tree"))
        w.startxref(w.xref(b"<< /Size 21 /Root 1 0 R /Info 20 0 R /ID " + FIXED_ID + b" >>"))
        save(name, w.bytes())

    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"
    # /Kids 3 0 R: the one page, where [3 0 R] was meant (pdf.js's poppler-937-0-fuzzed has it).
    doc("hand-kids-not-array.pdf", b"<< /Type /Pages /Kids 3 0 R /Count 1 >>", [(3, page)], "Kids not an array")
    expect("hand-kids-not-array.pdf", title="Kids not an array", keywords=["tree"], pages=1, warnings=["pageCount"],
           pdfinfo="agree")

    # Pages with a brace where a value belongs (fuzzed files have them): the brace reads as null,
    # as qpdf reads it, and the pages count.
    brace = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font { >> >>"
    doc("hand-kids-brace.pdf", b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>", [(3, brace), (4, brace)],
        "Kids with a brace")
    expect("hand-kids-brace.pdf", title="Kids with a brace", keywords=["tree"], pages=2,
           warnings=["other"], pdfinfo="agree")

    # Two kids whose objects are gone (their headers damaged, so neither the cross-reference
    # offsets nor the repair scan find them): no page can be read, which is not a document
    # without pages. With a /Count it is kept (poppler, pdf.js); without one the count is unknown.
    def gone(name, root, title):
        doc(name, root, [(3, page), (4, page)], title)
        data = open(path(name), "rb").read()
        save(name, data.replace(b"\n3 0 obj", b"\n3 0 ob%").replace(b"\n4 0 obj", b"\n4 0 ob%"))
    gone("hand-kids-unreadable.pdf", b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>", "Kids unreadable")
    expect("hand-kids-unreadable.pdf", title="Kids unreadable", keywords=["tree"], pages=2,
           warnings=["xrefRebuilt", "pageCount"], pdfinfo="agree")
    gone("hand-kids-unreadable-no-count.pdf", b"<< /Type /Pages /Kids [3 0 R 4 0 R] >>", "Kids unreadable, no count")
    expect("hand-kids-unreadable-no-count.pdf", title="Kids unreadable, no count", keywords=["tree"], pages=None,
           warnings=["xrefRebuilt", "pageCount"], pdfinfo="skip")


def direct_encrypt():
    """A user password, and the /Encrypt dictionary written into the trailer (pdfminer's samples):
    the error names the trailer's cross-reference section as its place."""
    sec = StandardRC4(3, 128, user_pw=b"secret")
    encrypted_doc("hand-enc-direct-user-password.pdf", b"<< /Filter /Standard /V 2 /R 3 /Length 128 " + sec.entries() + b" >>",
                  sec, direct=True)
    expect("hand-enc-direct-user-password.pdf", error="passwordRequired", encrypted=True, pdfinfo="skip")


GROUPS = ["cairo", "base_with_xmp", "qpdf_encrypted", "aes256", "second_producer", "incremental", "damaged",
          "strings", "hostile", "xref_streams", "xmp_cases", "junk_prefix", "page_counts",
          "incremental_without_info", "xmp_bag_order", "peers_suites", "page_tree_damage", "direct_encrypt"]


def main():
    """Writes every group, or (with group names after CAIRO_TOOL) only those, keeping the other
    entries of an existing expected.json (the hand-written groups need neither Cairo, qpdf nor
    pikepdf)."""
    os.makedirs(OUT, exist_ok=True)
    only = sys.argv[3:]
    for g in only:
        if g not in GROUPS:
            sys.exit("unknown group %s (groups: %s)" % (g, ", ".join(GROUPS)))
    if only and os.path.exists(path("expected.json")):
        with open(path("expected.json")) as f:
            EXPECTED.update(json.load(f))
    for g in only or GROUPS:
        if g == "aes256":
            aes256_doc("enc-r5-aes256.pdf", 5, True)
            aes256_doc("enc-r6-aes256.pdf", 6, True)
            aes256_doc("enc-r6-aes256-cleartext-metadata.pdf", 6, False)
        else:
            globals()[g]()
    with open(path("expected.json"), "w") as f:
        json.dump(EXPECTED, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")


main()
