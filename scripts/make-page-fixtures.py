#!/usr/bin/env python3
"""Writes the page-renderer fixtures: small PDFs, one per operator family, font kind, image kind,
blend mode and kind of damage, into Tests/PDFRenderTests/Fixtures/.

Deterministic (no dates, fixed ids) and standard-library only. Fonts: the standard 14 are named
without embedding (the renderer draws them with Liberation and DejaVu); embedded TrueType and CFF
come from the Cairo-made fixtures of the PDFMetadata tests and from Data/reports. JPEG data is a
fixed baseline JPEG written by jpeg_bytes() below (an 8×8 grey gradient, hand-encoded), so no
encoder is needed.

Usage: scripts/make-page-fixtures.py [OUTDIR]
"""
import os
import sys
import zlib

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "Tests", "PDFRenderTests", "Fixtures")


class PDF:
    """A minimal PDF writer: numbered objects, a catalog, pages, a classic xref table."""

    def __init__(self):
        self.objects = []  # bytes bodies, 1-based numbering

    def add(self, body):
        if isinstance(body, str):
            body = body.encode("latin-1")
        self.objects.append(body)
        return len(self.objects)

    def reserve(self):
        self.objects.append(None)
        return len(self.objects)

    def set(self, num, body):
        if isinstance(body, str):
            body = body.encode("latin-1")
        self.objects[num - 1] = body

    def stream(self, dict_body, data, compress=False):
        if isinstance(data, str):
            data = data.encode("latin-1")
        if compress:
            data = zlib.compress(data, 9)
            dict_body += " /Filter /FlateDecode"
        return self.add(b"<< " + dict_body.encode("latin-1") + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream")

    def write(self, path, pages_num, catalog_extra=""):
        catalog = self.add("<< /Type /Catalog /Pages %d 0 R %s>>" % (pages_num, catalog_extra))
        out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for i, body in enumerate(self.objects):
            offsets.append(len(out))
            out += b"%d 0 obj\n" % (i + 1) + body + b"\nendobj\n"
        xref = len(out)
        out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(self.objects) + 1)
        for off in offsets:
            out += b"%010d 00000 n \n" % off
        out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(self.objects) + 1, catalog, xref)
        with open(path, "wb") as f:
            f.write(out)


def std_fonts():
    names = ["Helvetica", "Helvetica-Bold", "Times-Roman", "Times-Italic", "Courier", "Symbol", "ZapfDingbats"]
    return {"F%d" % i: n for i, n in enumerate(names)}


def simple_page(name, content, resources="", size=(300, 200), extra_page="", catalog_extra="", setup=None):
    """One page with `content`; `setup(pdf)` may add objects and return a resources string."""
    pdf = PDF()
    pages = pdf.reserve()
    res = resources
    if setup:
        extra = setup(pdf)
        if isinstance(extra, tuple):  # (resources, catalog entries)
            extra, catalog_extra = extra
        res += extra
    fonts = " ".join("/%s %d 0 R" % (k, pdf.add("<< /Type /Font /Subtype /Type1 /BaseFont /%s%s >>" % (
        v, "" if v in ("Symbol", "ZapfDingbats") else " /Encoding /WinAnsiEncoding"))) for k, v in std_fonts().items())
    contents = pdf.stream("", content, compress=True)
    page = pdf.add("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %d %d] /Contents %d 0 R /Resources << /Font << %s >> %s >> %s >>"
                   % (pages, size[0], size[1], contents, fonts, res, extra_page))
    pdf.set(pages, "<< /Type /Pages /Kids [%d 0 R] /Count 1 >>" % page)
    pdf.write(os.path.join(OUT, name + ".pdf"), pages, catalog_extra)


def gray_image(pdf, w, h, bpc=8, fn=lambda x, y: (x * 255 // 7) ^ (y * 32)):
    rows = bytearray()
    for y in range(h):
        if bpc == 8:
            rows += bytes(fn(x, y) & 255 for x in range(w))
        else:  # 1 bit
            bits = 0
            row = bytearray()
            for x in range(w):
                bits = bits << 1 | (fn(x, y) & 1)
                if x % 8 == 7:
                    row.append(bits)
                    bits = 0
            if w % 8:
                row.append(bits << (8 - w % 8))
            rows += row
    return rows


def main():
    os.makedirs(OUT, exist_ok=True)

    # Paths: fills, both rules, strokes with caps, joins, dashes and zero width.
    simple_page("paths", """
0.9 0.2 0.2 rg 20 20 80 60 re f
0 0 1 RG 6 w 0 J 0 j 120 30 m 160 80 l 200 30 l S
1 J 1 j 0 0.6 0 RG 120 100 m 160 150 l 200 100 l S
2 J 2 j 0.5 G 120 170 m 200 170 l S
[6 3] 0 d 1 w 0 J 0 G 20 120 m 100 120 l S [] 0 d
0 w 20 130 m 100 190 l S
0.2 0.5 0.8 rg 230 20 m 290 20 l 260 80 l h 240 60 m 280 60 l 260 0 l h f*
230 100 m 290 100 l 260 160 l h 240 140 m 280 140 l 260 80 l h f
0 0 0 rg 20 100 m 40 60 60 140 80 100 c 85 80 90 90 v 95 95 100 90 y f
""")
    # Clipping with both rules, nested q/Q, and cm.
    simple_page("clip", """
q 150 100 80 0 360 re 50 50 200 100 re W n
0 0 1 rg 0 0 300 200 re f Q
q 1 0 0 1 20 20 cm 0.5 0 0 0.5 0 0 cm
0 0 m 200 0 l 100 160 l h 40 40 m 160 40 l 100 140 l h W* n
1 0 0 rg 0 0 300 300 re f Q
0 g 10 190 m 290 190 l S
""")
    # Colour spaces: Gray, RGB, CMYK, Indexed, Separation (type 2 and type 4 tints), DeviceN, Lab, ICCBased.
    def colours(pdf):
        tint2 = "<< /FunctionType 2 /Domain [0 1] /C0 [0 0 0 0] /C1 [0 0.8 0.9 0] /N 1 >>"
        ps = pdf.stream("/FunctionType 4 /Domain [0 1] /Range [0 1 0 1 0 1 0 1]", "{ dup 0.5 mul exch 0 exch 0 exch }")
        icc = pdf.stream("/N 3 /Alternate /DeviceRGB", b"\0" * 16)
        return ("/ColorSpace << /Ix [/Indexed /DeviceRGB 2 <ff0000 00ff00 0000ff>] /Sp [/Separation /Spot /DeviceCMYK %s] "
                "/Sp4 [/Separation /Spot4 /DeviceCMYK %d 0 R] /Dn [/DeviceN [/Cyan /Magenta] /DeviceCMYK "
                "<< /FunctionType 4 /Domain [0 1 0 1] /Range [0 1 0 1 0 1 0 1] /Length 25 >>] "
                "/Lab [/Lab << /WhitePoint [0.9505 1 1.089] /Range [-100 100 -100 100] >>] /Icc [/ICCBased %d 0 R] >>" % (tint2, ps, icc))
    simple_page("colours", """
0.3 g 10 10 40 40 re f 1 0.5 0 rg 60 10 40 40 re f 0 1 1 0 k 110 10 40 40 re f 1 0 0 0 k 160 10 40 40 re f
/Ix cs 1 sc 10 60 40 40 re f 2 sc 60 60 40 40 re f
/Sp cs 0.5 sc 110 60 40 40 re f 1 sc 160 60 40 40 re f
/Sp4 cs 1 scn 210 60 40 40 re f
/Lab cs 50 60 -40 sc 10 110 40 40 re f /Icc cs 0.2 0.4 0.9 sc 60 110 40 40 re f
/Icc CS 1 0 0 SC 8 w 110 130 m 250 130 l S
""", setup=colours)
    # Text: the standard 14 without embedding, spacing operators, TJ, render modes, rise, scaling.
    simple_page("text-standard14", """
BT /F0 14 Tf 10 180 Td (Helvetica: The quick brown fox) Tj ET
BT /F1 14 Tf 10 162 Td (Helvetica-Bold \\(parentheses\\)) Tj ET
BT /F2 14 Tf 10 144 Td [(T) 80 (imes) -250 (kerned) ] TJ ET
BT /F3 14 Tf 10 126 Td 2 Tc 4 Tw (Times-Italic spaced out) Tj ET
BT /F4 12 Tf 10 108 Td 150 Tz (Courier 150%) Tj 100 Tz ( x) Tj 5 Ts (rise) Tj ET
BT /F5 14 Tf 10 90 Td (abgdp) Tj ET
BT /F6 14 Tf 120 90 Td (3456) Tj ET
BT /F0 18 Tf 1 Tr 0.5 w 1 0 0 RG 10 64 Td (Stroked) Tj 2 Tr 0 0 1 rg 90 0 Td (Both) Tj 3 Tr 70 0 Td (INVISIBLE) Tj ET
BT /F0 10 Tf 14 TL 10 40 Td (line one) Tj T* (line two) Tj (\\050) ' 1 2 (dq) " ET
BT 7 Tr /F1 40 Tf 150 10 Td (CLIP) Tj ET 0 0 1 rg 150 10 120 40 re f
""")
    # Text in render mode 3 only: a scanned page's text layer, which must draw nothing.
    simple_page("text-invisible", "BT 3 Tr /F0 24 Tf 20 100 Td (This text layer is invisible) Tj ET")
    # A Type 3 font: two glyphs drawn by procedures (one coloured, one uncoloured with d1).
    def type3(pdf):
        sq = pdf.stream("", "1000 0 d0 1 0 0 rg 100 0 800 800 re f")
        tri = pdf.stream("", "1000 0 0 0 1000 1000 d1 1 0 0 rg 0 0 m 1000 0 l 500 900 l f")
        font = pdf.add("<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] "
                       "/CharProcs << /sq %d 0 R /tri %d 0 R >> /Encoding << /Type /Encoding /Differences [65 /sq /tri] >> "
                       "/FirstChar 65 /LastChar 66 /Widths [1000 1000] >>" % (sq, tri))
        return "/Font << /T3 %d 0 R >>" % font
    simple_page("type3", "BT /T3 40 Tf 0 0 1 rg 20 80 Td (ABAB) Tj ET", setup=type3)
    # Images: 8-bit grey, 1-bit grey, RGB with an SMask, an image mask (stencil), an inline image,
    # a colour-key mask, Decode arrays, and a DCT image.
    def images(pdf):
        g8 = pdf.stream("/Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8",
                        bytes(gray_image(pdf, 8, 8)), compress=True)
        g1 = pdf.stream("/Type /XObject /Subtype /Image /Width 16 /Height 16 /ColorSpace /DeviceGray /BitsPerComponent 1",
                        bytes(gray_image(pdf, 16, 16, 1, lambda x, y: (x // 4 + y // 4))))
        rgb = bytes(v for y in range(16) for x in range(16) for v in (x * 16, y * 16, 128))
        sm = pdf.stream("/Type /XObject /Subtype /Image /Width 16 /Height 16 /ColorSpace /DeviceGray /BitsPerComponent 8",
                        bytes(x * 17 for y in range(16) for x in range(16)), compress=True)
        im = pdf.stream("/Type /XObject /Subtype /Image /Width 16 /Height 16 /ColorSpace /DeviceRGB /BitsPerComponent 8 /SMask %d 0 R" % sm,
                        rgb, compress=True)
        mask = pdf.stream("/Type /XObject /Subtype /Image /Width 16 /Height 16 /ImageMask true /Decode [1 0]",
                          bytes(gray_image(pdf, 16, 16, 1, lambda x, y: x == y or x == 15 - y)))
        key = pdf.stream("/Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8 /Mask [0 40] /Decode [1 0]",
                         bytes(gray_image(pdf, 8, 8)), compress=True)
        return "/XObject << /G8 %d 0 R /G1 %d 0 R /Im %d 0 R /Mk %d 0 R /Key %d 0 R >>" % (g8, g1, im, mask, key)
    simple_page("images", """
q 60 0 0 60 10 130 cm /G8 Do Q
q 60 0 0 60 80 130 cm /G1 Do Q
0.9 0.9 0.2 rg 150 130 60 60 re f q 60 0 0 60 150 130 cm /Im Do Q
1 0 0 rg q 60 0 0 60 220 130 cm /Mk Do Q
q 60 0 0 60 10 60 cm /Key Do Q
q 60 0 0 60 80 60 cm BI /W 4 /H 4 /CS /RGB /BPC 8 ID
\xff\x00\x00\x00\xff\x00\x00\x00\xff\xff\xff\x00\x00\xff\xff\xff\x00\xff\x80\x80\x80\x00\x00\x00\xff\xff\xff\x40\x40\x40\xc0\xc0\xc0\x20\x60\xa0\xa0\x60\x20\x10\x10\x10\xf0\xf0\xf0\x77\x77\x77\x33\x99\xcc
EI Q
""", setup=images)
    # Shadings: axial with both, one and no extends, radial, the sh operator, a shading pattern fill.
    def shadings(pdf):
        f = "<< /FunctionType 2 /Domain [0 1] /C0 [1 0 0] /C1 [0 0 1] /N 1 >>"
        st = ("<< /FunctionType 3 /Domain [0 1] /Functions [<< /FunctionType 2 /Domain [0 1] /C0 [1 1 0] /C1 [0 1 0] /N 1 >> "
              "<< /FunctionType 2 /Domain [0 1] /C0 [0 1 0] /C1 [0 0 0] /N 1 >>] /Bounds [0.5] /Encode [0 1 0 1] >>")
        ax = pdf.add("<< /ShadingType 2 /ColorSpace /DeviceRGB /Coords [20 0 80 0] /Function %s /Extend [true true] >>" % f)
        ax1 = pdf.add("<< /ShadingType 2 /ColorSpace /DeviceRGB /Coords [120 0 160 0] /Function %s /Extend [false true] >>" % st)
        ra = pdf.add("<< /ShadingType 3 /ColorSpace /DeviceRGB /Coords [240 50 0 240 50 40] /Function %s /Extend [false false] >>" % f)
        pat = pdf.add("<< /PatternType 2 /Shading << /ShadingType 2 /ColorSpace /DeviceGray /Coords [0 100 0 190] "
                      "/Function << /FunctionType 2 /Domain [0 1] /C0 [0] /C1 [1] /N 2 >> /Extend [true true] >> >>")
        return "/Shading << /Ax %d 0 R /Ax1 %d 0 R /Ra %d 0 R >> /Pattern << /P0 %d 0 R >>" % (ax, ax1, ra, pat)
    simple_page("shadings", """
q 10 10 90 80 re W n /Ax sh Q
q 110 10 90 80 re W n /Ax1 sh Q
q 200 10 90 80 re W n /Ra sh Q
/Pattern cs /P0 scn 10 100 280 90 re f
""", setup=shadings)
    # Tiling patterns: coloured, and uncoloured painted in two colours.
    def tiling(pdf):
        col = pdf.stream("/PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 20 20] /XStep 20 /YStep 20 /Resources << >>",
                         "1 0 0 rg 0 0 10 10 re f 0 0 1 rg 10 10 10 10 re f")
        unc = pdf.stream("/PatternType 1 /PaintType 2 /TilingType 1 /BBox [0 0 10 10] /XStep 12 /YStep 12 /Resources << >>",
                         "5 5 m 10 5 l 5 10 l h f")
        return "/Pattern << /C %d 0 R /U %d 0 R >> /ColorSpace << /UP [/Pattern /DeviceRGB] >>" % (col, unc)
    simple_page("tiling", "/Pattern cs /C scn 10 10 130 180 re f /UP cs 0 0.6 0 /U scn 160 10 130 85 re f 0.8 0 0.8 /U scn 160 105 130 85 re f",
                setup=tiling)
    # Transparency: constant alpha, a transparency group with alpha, a luminosity soft mask, and
    # the 16 blend modes over a two-colour backdrop.
    modes = ["Normal", "Multiply", "Screen", "Overlay", "Darken", "Lighten", "ColorDodge", "ColorBurn", "HardLight",
             "SoftLight", "Difference", "Exclusion", "Hue", "Saturation", "Color", "Luminosity"]
    def transparency(pdf):
        gs = " ".join("/B%d << /BM /%s >>" % (i, m) for i, m in enumerate(modes))
        grp = pdf.stream("/Type /XObject /Subtype /Form /BBox [0 0 100 100] /Group << /S /Transparency /I true >>",
                         "1 0 0 rg 0 0 60 60 re f 0 0 1 rg 40 40 60 60 re f")
        mask = pdf.stream("/Type /XObject /Subtype /Form /BBox [0 0 300 200] /Group << /S /Transparency /CS /DeviceGray >> "
                          "/Resources << /Shading << /S << /ShadingType 2 /ColorSpace /DeviceGray /Coords [200 0 290 0] "
                          "/Function << /FunctionType 2 /Domain [0 1] /C0 [1] /C1 [0] /N 1 >> /Extend [true true] >> >> >>",
                          "/S sh")
        return ("/ExtGState << /A50 << /ca 0.5 /CA 0.5 >> /SM << /SMask << /Type /Mask /S /Luminosity /G %d 0 R >> >> %s >> "
                "/XObject << /Grp %d 0 R >>" % (mask, gs, grp))
    blend = "\n".join("q /B%d gs 0.9 0.6 0.1 rg %d %d 14 14 re f Q" % (i, 10 + (i % 8) * 18, 10 + (i // 8) * 18) for i in range(16))
    simple_page("transparency", """
0 0.5 1 rg 0 0 150 48 re f 1 1 0 rg 0 0 150 20 re f
%s
q /A50 gs 1 0 0 rg 160 10 60 60 re f 0 0 1 rg 190 40 60 60 re f Q
q /A50 gs 20 0 0 20 0 0 cm 0.05 0 0 0.05 10 90 cm /Grp Do Q
q /SM gs 0 0.6 0 rg 200 110 90 80 re f Q
""" % blend, setup=transparency)
    # Forms: nesting, a matrix, a form that draws itself (a cycle), and optional content off.
    def forms(pdf):
        inner = pdf.stream("/Type /XObject /Subtype /Form /BBox [0 0 50 50]", "0 0 1 rg 0 0 50 50 re f")
        outer = pdf.reserve()
        pdf.set(outer, b"<< /Type /XObject /Subtype /Form /BBox [0 0 100 100] /Matrix [1 0 0 1 10 10] /Resources << /XObject << /In "
                + b"%d 0 R /Me %d 0 R >> >> /Length 34 >>\nstream\n0.3 g 0 0 100 100 re f /In Do /Me Do\nendstream" % (inner, outer))
        ocg = pdf.add("<< /Type /OCG /Name (Hidden layer) >>")
        hidden = pdf.stream("/Type /XObject /Subtype /Form /BBox [0 0 100 100] /OC %d 0 R" % ocg, "1 0 0 rg 0 0 100 100 re f")
        return ("/XObject << /Out %d 0 R /Hid %d 0 R >> /Properties << /L %d 0 R >>" % (outer, hidden, ocg),
                "/OCProperties << /OCGs [%d 0 R] /D << /OFF [%d 0 R] >> >> " % (ocg, ocg))
    simple_page("forms", "/Out Do q 1 0 0 1 150 0 cm /Hid Do Q /OC /L BDC 1 0 0 rg 150 100 100 80 re f EMC 0 1 0 rg 270 180 20 20 re f",
                setup=forms)
    # Annotations: a visible appearance stream, a hidden one, and a NoView one.
    def annots(pdf):
        ap = pdf.stream("/Type /XObject /Subtype /Form /BBox [0 0 100 40]", "1 1 0 rg 0 0 100 40 re f 0 g 0 0 m 100 40 l S")
        a1 = pdf.add("<< /Type /Annot /Subtype /Square /Rect [20 20 220 100] /AP << /N %d 0 R >> >>" % ap)
        a2 = pdf.add("<< /Type /Annot /Subtype /Square /Rect [20 120 120 160] /F 2 /AP << /N %d 0 R >> >>" % ap)
        a3 = pdf.add("<< /Type /Annot /Subtype /Square /Rect [140 120 240 160] /F 32 /AP << /N %d 0 R >> >>" % ap)
        return ">> /Annots [%d 0 R %d 0 R %d 0 R] /Dummy <<" % (a1, a2, a3)
    simple_page("annotations", "0.8 g 0 0 300 200 re f", setup=annots)
    # Page geometry: a crop box, /Rotate 90, and a page label.
    simple_page("rotated-cropped", "0 0 1 rg 0 0 400 300 re f 1 0 0 rg 50 50 100 50 re f BT /F0 20 Tf 60 120 Td (Up) Tj ET",
                size=(400, 300), extra_page="/CropBox [40 40 360 260] /Rotate 90",
                catalog_extra="/PageLabels << /Nums [0 << /S /r /P (p-) /St 4 >>] >> ")
    # Damage: unknown operators, stray delimiters, missing resources, too few operands, an
    # unbalanced q, a truncated image, a JBIG2 image, and a content stream cut mid-string.
    def damage(pdf):
        short = pdf.stream("/Type /XObject /Subtype /Image /Width 32 /Height 32 /ColorSpace /DeviceGray /BitsPerComponent 8",
                           bytes(range(200)))
        jb = pdf.stream("/Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /JBIG2Decode",
                        b"\x00" * 16)
        return "/XObject << /Short %d 0 R /JB %d 0 R >>" % (short, jb)
    simple_page("damaged-content", """
q q q 1 0 0 rg 10 10 50 50 re f
foo bar 12 baz ] ) > }
/Missing Do /NoFont 12 Tf BT /Nope 10 Tf (x) Tj ET
1 0 0 re f 0 1 0 rg 70 10 50 50 re f
q 60 0 0 60 130 10 cm /Short Do Q q 60 0 0 60 200 10 cm /JB Do Q
BT /F0 12 Tf 10 150 Td (cut here
""", setup=damage)


def ccitt_fixtures():
    """CCITT fax images (Group 4, and Group 3 two-dimensional with end-of-line codes), encoded by
    libtiff's tiffcp from a bilevel drawing made with Pillow. Needs Pillow (PyPI) and tiffcp
    (Debian: libtiff-tools); without them the committed files are kept."""
    import shutil
    import subprocess
    import tempfile
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        print("make-page-fixtures: Pillow missing; CCITT fixtures kept as they are", file=sys.stderr)
        return
    if shutil.which("tiffcp") is None:
        print("make-page-fixtures: tiffcp missing; CCITT fixtures kept as they are", file=sys.stderr)
        return
    tmp = tempfile.mkdtemp()
    im = Image.new("1", (400, 200), 1)
    d = ImageDraw.Draw(im)
    d.rectangle((20, 20, 380, 36), fill=0)
    for i in range(0, 360, 7):
        d.line((20 + i, 50, 20 + i, 180), fill=0, width=1 + i % 3)
    d.ellipse((220, 60, 360, 190), outline=0, width=5)
    d.polygon([(30, 190), (120, 60), (200, 190)], outline=0)
    im.save(os.path.join(tmp, "src.tif"))
    for name, codec, k in [("ccitt-g4", "g4", -1), ("ccitt-g3-2d", "g3:2d", 1)]:
        tif = os.path.join(tmp, name + ".tif")
        subprocess.run(["tiffcp", "-r", "10000", "-c", codec, os.path.join(tmp, "src.tif"), tif], check=True)
        t = Image.open(tif).tag_v2
        raw = open(tif, "rb").read()
        data = raw[t[273][0]:t[273][0] + t[279][0]]
        black_is_1 = t.get(262) == 1
        pdf = PDF()
        pages = pdf.reserve()
        img = pdf.add(b"<< /Type /XObject /Subtype /Image /Width 400 /Height 200 /ColorSpace /DeviceGray /BitsPerComponent 1 "
                      b"/Filter /CCITTFaxDecode /DecodeParms << /K %d /Columns 400 /Rows 200 /EndOfLine %s /BlackIs1 %s >> "
                      b"/Length %d >>\nstream\n" % (k, b"true" if k >= 0 else b"false", b"true" if black_is_1 else b"false", len(data))
                      + data + b"\nendstream")
        contents = pdf.stream("", "q 300 0 0 150 0 0 cm /I Do Q")
        page = pdf.add("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 300 150] /Contents %d 0 R /Resources << /XObject << /I %d 0 R >> >> >>"
                       % (pages, contents, img))
        pdf.set(pages, "<< /Type /Pages /Kids [%d 0 R] /Count 1 >>" % page)
        pdf.write(os.path.join(OUT, name + ".pdf"), pages)
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
    ccitt_fixtures()
