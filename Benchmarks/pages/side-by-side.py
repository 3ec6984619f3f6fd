#!/usr/bin/env python3
"""Draws one PDF page with the engine (`bubbles page`), poppler (`pdftoppm -cropbox`) and PDFium
(pypdfium2) at the same resolution and writes them side by side with captions: the README's
picture. Measuring tools only (poppler-utils, pypdfium2, Pillow); nothing here ships.

    side-by-side.py PDF OUT.png [--page 1] [--dpi 110] [--top 0] [--crop 0.62] [--bubbles .build/release/bubbles]

--top and --crop keep the band of each page between those fractions of its height (detail over
whole-page thumbnails).
"""
import argparse
import os
import subprocess
import tempfile

import pypdfium2 as pdfium
from PIL import Image, ImageDraw, ImageFont


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pdf")
    ap.add_argument("out")
    ap.add_argument("--page", type=int, default=1)
    ap.add_argument("--dpi", type=float, default=110)
    ap.add_argument("--crop", type=float, default=0.62)
    ap.add_argument("--top", type=float, default=0.0, help="start the crop this fraction down the page")
    ap.add_argument("--bubbles", default=".build/release/bubbles")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp()
    ours = os.path.join(tmp, "ours.png")
    subprocess.run([a.bubbles, "page", a.pdf, "--page", str(a.page), "--dpi", str(a.dpi), "--output", ours], check=True)
    subprocess.run(["pdftoppm", "-r", str(a.dpi), "-f", str(a.page), "-l", str(a.page), "-cropbox", "-png", "-singlefile",
                    a.pdf, os.path.join(tmp, "poppler")], check=True)
    doc = pdfium.PdfDocument(a.pdf)
    doc[a.page - 1].render(scale=a.dpi / 72, may_draw_forms=True).to_pil().save(os.path.join(tmp, "pdfium.png"))
    images = [("bubbles page (ours)", Image.open(ours).convert("RGB")),
              ("pdftoppm (poppler)", Image.open(os.path.join(tmp, "poppler.png")).convert("RGB")),
              ("PDFium (pypdfium2)", Image.open(os.path.join(tmp, "pdfium.png")).convert("RGB"))]
    w = max(i.width for _, i in images)
    full = max(i.height for _, i in images)
    top = int(full * a.top)
    h = int(full * a.crop) - top
    pad, caption = 16, 34
    sheet = Image.new("RGB", (3 * w + 4 * pad, h + caption + 2 * pad), (236, 238, 242))
    draw = ImageDraw.Draw(sheet)
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 18)
    for k, (name, im) in enumerate(images):
        x = pad + k * (w + pad)
        draw.text((x, pad), name, fill=(40, 44, 52), font=font)
        sheet.paste(im.crop((0, top, im.width, top + h)), (x, pad + caption))
        draw.rectangle((x - 1, pad + caption - 1, x + im.width, pad + caption + h), outline=(170, 174, 182))
    sheet.save(a.out, optimize=True)


if __name__ == "__main__":
    main()
