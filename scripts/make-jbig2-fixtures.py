#!/usr/bin/env python3
"""Writes Tests/PDFRenderTests/Fixtures/jbig2-huffman.pdf: JBIG2 images whose symbol dictionaries
and text regions are Huffman-coded (standard tables B.1–B.15, custom table segments, MMR collective
bitmaps, refinement with Huffman-coded sizes), or use refinement aggregates and retained contexts.

Page 1 draws the six streams pdftoppm decodes too in a grid (the golden render and the pdftoppm
cross-check); pages 2… draw one stream each. Every image is drawn at one image pixel a point, so a
72 dpi render is the decoded bitmap itself (JBIG2Tests compares it with PDFium's), and pdftoppm's
smoothing of scaled-down images does not come into the cross-check.

The JBIG2 streams below are copied byte for byte from pdf.js's test files
test/pdfs/bitmap-symbol-*.pdf (https://github.com/mozilla/pdf.js, Apache-2.0, Copyright Mozilla
Foundation and contributors), base64-encoded. Each draws the same 399×400 bilevel picture.
Deterministic and standard-library only.

Usage: scripts/make-jbig2-fixtures.py [OUTDIR]
"""
import base64
import os
import sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "Tests", "PDFRenderTests", "Fixtures")

# (name of the pdf.js file without "bitmap-symbol-", its JBIG2Decode stream). From pdf.js, Apache-2.0.
STREAMS = [
    ("symhuff-texthuff", """
AAAAADAAAQAAABMAAAGPAAABkAAAAAAAAAAAAQAAAAAAAQABAQAAAWgAAQAAAAUAAAAF8l379/4W8kDKgcIMIOEGEHTTpp/pp/pp
/////2mv2mv2mrTUMIMKGEGFEeD3XwAAAAz/JID5SihBwg6dP0/T9a13WtfWnWn4TrCwnWnC1pwsJwsJ1hEG0dwgutwk8JXQT0Fe
noK9PSvCfCvXq8J8K7CfCu0+FdhPa4YTcMLi37ft/39/a9r2rUMKGFH//PgAAAJXwAAABb/WQP8pBwiGN1BB0HQeHTw6D3veHvd9
3w7duHhuRINKG4e3D27d4b3b9u9v3t+3u3e3939v2733fe77vvd933bvu3u3fd93t+37d7dv2/b3fd93v77vf/fv/93//3f/////
/////////+vrr6r66rqvrS9L0vCVaXparquq6rrVBelWl6UFhYJQsJQsJQlCULWlC0qwlCUIKEFCChBSDBShBQQKUAcQgoQVBUFq
lhUFrWFhYWFYWFYWFZBRtIwUMKGR7FxwAUAAAAACBiABAQAAADoAAAGPAAABkAAAAAAAAAAAAA0VAAAAAAAFABEAAAAAAAAAAAAA
AAAAAAAFAHx1oT5dfdztZfwIKnzk
"""),
    ("symhuffB5B3-texthuffB7B9B12", """
AAAAADAAAQAAABMAAAGPAAABkAAAAAAAAAAAAQAAAAAAAQABAQAAAWgAFQAAAAUAAAAF8l379/oW8kDKgcIMIOEGEHTTpp/pp/pp
/////2mv2mv2mrTUMIMKGEGFEeD3X4AAAAZ+kkD5SihBwg6dP0/T9a13WtfWnWn4TrCwnWnC1pwsJwsJ1hEG0dwgutwk8JXQT0Fe
noK9PSvCfCvXq8J8K7CfCu0+FdhPa4YTcMLi37ft/39/a9r2rUMKGFH//PgAAAEr8AAAAW/VkP8pBwiGN1BB0HQeHTw6D3veHvd9
3w7duHhuRINKG4e3D27d4b3b9u9v3t+3u3e3939v2733fe77vvd933bvu3u3fd93t+37d7dv2/b3fd93v77vf/fv/93//3f/////
/////////+vrr6r66rqvrS9L0vCVaXparquq6rrVBelWl6UFhYJQsJQsJQlCULWlC0qwlCUIKEFCChBSDBShBQQKUAcQgoQVBUFq
lhUFrWFhYWFYWFYWFZBRtIwUMKGR7FxwAUAAAAACBiABAQAAAD4AAAGPAAABkAAAAAAAAAAAAA0VABUAAAAFABEAAAAAAAAAAAAA
AAAAAAAFAH680I+Wn3N1WT/AAAABbVK8AA==
"""),
    ("symhuffcustom-texthuffcustom", """
AAAAADAAAQAAABMAAAGPAAABkAAAAAAAAAAAAQAAAAAAATUBAQAAAA4kAAAAAQAAAExAiNi4UAAAAAI1AQEAAAAOJQAAAAAAAABL
QIjYuGwAAAADNQEBAAAADUIAAAAAAAEBEJCTgYAAAAAENQEBAAAADUIAAAAAAAEBEEnCQYAAAAAFAIEBAgMEAQAAAWcA/QAAAAUA
AAAF8ltv4mDyQMqBwgwg4QYQdNOmn+mn+mn/////aa/aa/aatNQwgwoYQYUR4PdfAAAADP8sgPlKKEHCDp0/T9P1rXda19adafhO
sLCdacLWnCwnCwnWEQbR3CC63CTwldBPQV6egr09K8J8K9erwnwrsJ8K7T4V2E9rhhNwwuLft+3/f39r2vatQwoYUf/8+AAAAlfA
AAAFv9hA/ykHCIY3UEHQdB4dPDoPe94e933fDt24eG5Eg0obh7cPbt3hvdv272/e37e7d7f3f2/bvfd97vu+933fdu+7e7d933e3
7ft3t2/b9vd933e/vu9/9+//3f//d///////////////6+uvqvrquq+tL0vS8JVpelquq6rqutUF6VaXpQWFglCwlCwlCUJQtaUL
SrCUJQgoQUIKEFIMFKEFBApQBxCChBUFQWqWFQWtYWFhYVhYVhYVkFG0jBQwoZHsXHABQAAAAAY1AQEAAAAVNP//+AAAAAgAk2o8
irWTxXDeVJ2AAAAABzUBAQAAAB03////8QAABoaRg5CBQHBQITRgRGFWRWdXaniZIAAAAAg1AQEAAAATJAAAAAEAAACNRIhgqp6y
87+9HAAAAAkGgAUGBwgBAAAAOgAAAY8AAAGQAAAAAAAAAAAADRUAPwAAAAUAEQAAAAAAAAAAAAAAAAAAAAUAnv00J9Xfu48WX7CK
pXI=
"""),
    ("texthuffrefinecustom", """
AAAAADAAAQAAABMAAAGPAAABkAAAAAAAAAAAAQAAAAAAAQABAQAAAYQAAQAAAAQAAAAE8l5P+BTyGOEHCDp0/T9P//+17XtWoYUM
KPD0Pnf4ZPJA4QcIOnT9P0///7Xte1ahhQwo//+SfTruu67ruv3X///2vatWoaj88b8AAAAM/ySA+UooQcIOnT9P0/Wtd1rX1p1p
+E6wsJ1pwtacLCcLCdYRBtHcILrcJPCV0E9BXp6CvT0rwnwr16vCfCuwnwrtPhXYT2uGE3DC4t+37f9/f2va9q1DChhR//z4AAAC
V8AAAAW/1kD/KQcIhjdQQdB0Hh08Og973h73fd8O3bh4bkSDShuHtw9u3eG92/bvb97ft7t3t/d/b9u9933u+773fd9277t7t33f
d7ft+3e3b9v2933fd7++73/37//d//93///////////////r66+q+uq6r60vS9LwlWl6Wq6rquq61QXpVpelBYWCULCULCUJQlC1
pQtKsJQlCChBQgoQUgwUoQUEClAHEIKEFQVBapYVBa1hYWFhWFhWFhWQUbSMFDChkexccAEAAAAAAjUBAQAAAAwC/////gAAAANb
bAAAAAADNQEBAAAADAL////+AAAAA8tsAAAAAAQ1AQEAAAAMAv////4AAAAD2ywAAAAABTUBAQAAAAwC/////gAAAAPbZAAAAAAG
NQEBAAAADUIAAAAAAAEBEJCTgYAAAAAHB+AAAAYAAQIDBAUGAQAAAFwAAAGPAAABkAAAAAAAAAAAAAAXf8D/////AAAABAAQAAAA
AAAAAAAAAAAAAAAQBJ8haGfLr6OdrB/Agq7docCqHgRkEZF/PvIOzVgTvrDBkCLt7SnztUltP/+sQA==
"""),
    ("symhuffrefine-textrefine", """
AAAAADAAAQAAABMAAAGPAAABkAAAAAAAAAAAAQAAAAAAAQABAQAAAVIAAQAAAAcAAAAH8l5N/CzyQMqBwgwg4QYQdNOmn+mn+mn/
////aa/aa/aatNQwgwoYQYUR4O3nfE/wgCFAXtYVhSGNqEGGFCDDCpjT9P0///7Xte1ahhQwo//w8R53xH8IAPk1PDw97+/v//f/
/39/f+/v/f39/f3933fd933933eA+AAAA5fAAAAFv9ZA/ykHCIY3UEHQdB4dPDoPe94e933fDt24eG5Eg0obh7cPbt3hvdv272/e
37e7d7f3f2/bvfd97vu+933fdu+7e7d933e37ft3t2/b9vd933e/vu9/9+//3f//d///////////////6+uvqvrquq+tL0vS8JVp
elquq6rqutUF6VaXpQWFglCwlCwlCUJQtaULSrCUJQgoQUIKEFIMFKEFBApQBxCChBUFQWqWFQWtYWFhYVhYVhYVkFG0jBQwoZHs
XHABwAAAAAIAIQEBAAAAnQAD/////wAAAAsAAAAE9h7AKkPAqQmU2thHCZMC2ANbEbrNcMGNJxF9SddSVBQE1V9ThWLSdNCcNxFs
JCALzWv/rPOiAA7SEGCMQPCpTIFNvkWYPDPFwPIVz/ntu2b1LfPIEeCbJiUu/KqJhMJ7veKtxZj+5X+NxmfB6c1q997rnCb7SNj0
YKww7/+s/858AAAAMjADJ+vv5iR/AsAAAAADBiACAQAAAHcAAAGPAAABkAAAAAAAAAAAAA0XAAD/////AAAABAAQAAAAAAAAAAAA
AAAAAAABAlCfIWhHy6+4ROCrS4+XTbY94Ohv/3//dNqwKEc5/39WoupJpHR3mqMVtSRART7AptFTIxUWxgf5j7znE68XP/+sc7WT
+BBUIA==
"""),
    ("symbolrefineone-customat", """
AAAAADAAAQAAABMAAAGPAAABkAAAAAAAAAAAAQAAAAAAAQABAQAAAQkAAAP//f8C/v7+AAAABAAAAAQng14wpVCQMEnukhk9NADF
YTS06Y7+W15s9IHMv38tEi6nKPhoz2BP+VTCKKjdCfkBvyZNnOtqz4jcOzrFrZcqq2oFqeI1V8yM5A/SxmtN8KUX7PqzEv0zO0OY
E9zjeSRrjtUW4YsRNlK0KgEV1XL40zwr9Yx5TUcHg0B+2Fd/1aiTExwcNyZGn3OfDNUD6FGlGLLTzFm6HbxReo+We729XjhT95aP
0vEsfCbGuqVJBWJBRPQ8eZ78k2eUmTVvHLQ8Zl1kf3wsHrl3rwgIUg/Z7PLHyy0GYQyYnfWBK3OoWCd+5HhfVnpv6hKd1eQDzcSj
lfDYn/+sAAAAAgAhAQEAAAA7AAID//3/Av7+/hH++AkAAAAFAAAAARhkWRf5BhBQLFl5BvlG78RdFICZc7exoylfESdEbojlAuVn
/6wAAAADBiACAQAAACkAAAGPAAABkAAAAAAAAAAAAA0UAAAABHMqegXDkRUTc1paMJxb/3//rA==
"""),
    ("context-reuse", """
AAAAADAAAQAAABMAAAGPAAABkAAAAAAAAAAAAQAAAAAAAQABAQAAADgCAAP//f8C/v7+AAAAAQAAAAEng14wpVCQMEnukhk9NADF
YTS06Y7+W15s9IHMv38tEi6nKVf/rAAAAAIAIwEBAAAAKgEAA//9/wL+/v4AAAABAAAAASeDUaoIbbAS62GDkFC3rlu+F6vMVm//
rAAAAAMAIwEBAAAAVgMAA//9/wL+/v4AAAABAAAAARTPhHvIH2XGqgxEPTXTCeP7kW4CJvOKM2bWNrbGampyfvKtKcften4TaJpJ
6Qof5U6oMBGJ+0nzCjVC/wr+hkPElP+sAAAABABhAQIDAQAAAIwBAAP//f8C/v7+AAAABAAAAAEOgurNgD3itPun/I84gy+JLAjG
toZdvHdX62VzWR5ar+Am6Msao2aX5ir86wP6uJkV73SM7y2nN/7e9mKroKLFhiRCK875CuP0ub82eEatbRLCMhDUxQAaxOGoCeX1
4j/8u4lU1WukX0b3e1oed08Dpw+L+i8edR//rAAAAAUHIAQBAAAAJwAAAY8AAAGQAAAAAAAAAAAAABgAAAAEiPrY0+RosPT7HbV6
j/f/rA==
"""),
]

# The streams poppler 22 does not decode (it draws nothing for them): kept off page 1.
NOT_IN_POPPLER = {"symhuffB5B3-texthuffB7B9B12"}


def write_pdf(path, objects):
    """objects: bodies (bytes) numbered from 1; object 1 is the catalog."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % (i + 1) + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    with open(path, "wb") as f:
        f.write(out)


def main():
    objects = [None, None]  # 1 catalog, 2 pages

    def add(body):
        objects.append(body)
        return len(objects)

    def stream(head, data):
        return add(b"<< " + head + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream")

    images = []
    for name, b64 in STREAMS:
        data = base64.b64decode("".join(b64.split()))
        images.append((name, stream(b"/Type /XObject /Subtype /Image /Width 399 /Height 400 /ColorSpace /DeviceGray "
                                    b"/BitsPerComponent 1 /Filter /JBIG2Decode", data)))
    pages = []
    # Page 1: a 3 × 2 grid of 399 × 400 pt cells.
    grid = [(n, num) for n, num in images if n not in NOT_IN_POPPLER]
    ops, xobjects = [], []
    for i, (name, num) in enumerate(grid):
        x, y = 399 * (i % 3), 400 * (1 - i // 3)
        ops.append("q 399 0 0 400 %d %d cm /I%d Do Q" % (x, y, i))
        xobjects.append("/I%d %d 0 R" % (i, num))
    content = stream(b"", "\n".join(ops).encode())
    pages.append(add(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 1197 800] /Contents %d 0 R "
                     b"/Resources << /XObject << %s >> >> >>" % (content, " ".join(xobjects).encode())))
    # Pages 2…: one stream each, one image pixel a point.
    for name, num in images:
        content = stream(b"", b"q 399 0 0 400 0 0 cm /I Do Q")
        pages.append(add(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 399 400] /Contents %d 0 R "
                         b"/Resources << /XObject << /I %d 0 R >> >> >>" % (content, num)))
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (" ".join("%d 0 R" % p for p in pages).encode(), len(pages))
    write_pdf(os.path.join(OUT, "jbig2-huffman.pdf"), objects)


if __name__ == "__main__":
    main()
