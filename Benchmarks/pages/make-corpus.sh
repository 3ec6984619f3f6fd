#!/usr/bin/env bash
# Builds an outside corpus of PDFs for Benchmarks/pages/compare.py into DIR (not committed).
#
#   Benchmarks/pages/make-corpus.sh DIR [PDFJS]
#
# DIR/debian/      PDFs shipped by Debian packages (the -doc packages below), at most 25 per package
#                  and 250 in all, chosen by the SHA-1 of their paths (.pdf.gz decompressed)
# DIR/<producer>/  documents made here: pdflatex, lualatex, xelatex, libreoffice, matplotlib,
#                  reportlab, weasyprint, groff, ghostscript, cairo
# DIR/pdfjs/       pdf.js's test/pdfs/*.pdf, only when PDFJS is given: a pdf.js checkout (with
#                  test/pdfs/) or a git directory of one (files are read from HEAD with git show)
#
# Installs with apt-get (Debian bookworm) and pip unless SKIP_INSTALL=1; PYTHON (default python3)
# is the interpreter for matplotlib, ReportLab, WeasyPrint and Pillow; the Cairo documents use
# Debian's /usr/bin/python3 with python3-cairo. The made documents are deterministic where the
# producer allows it (SOURCE_DATE_EPOCH, fixed metadata, a fixed work folder; LibreOffice's
# dates and /ID change from run to run); the Debian selection depends only on
# the packages' contents. Prints the number of files per folder at the end.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 DIR [PDFJS_CHECKOUT_OR_GIT_DIR]" >&2
  exit 2
fi
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
PDFJS=${2:-}
PY=${PYTHON:-python3}
SYSPY=/usr/bin/python3
export SOURCE_DATE_EPOCH=946684800 FORCE_SOURCE_DATE=1 TZ=UTC
export LC_ALL=C.UTF-8
# A fixed work folder: LuaTeX and WeasyPrint put the source's path into the file identifier.
WORK=/tmp/make-corpus-work
rm -rf "$WORK" && mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT

# Tools that produce documents, then -doc packages that ship PDFs of several producers.
# About 1.1 GB installed with --no-install-recommends on bookworm.
TOOLS=(poppler-utils texlive-latex-base texlive-latex-recommended texlive-fonts-recommended
  texlive-luatex texlive-xetex libreoffice-writer groff ghostscript python3-cairo
  libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core)
DOCS=(texlive-latex-base-doc graphviz-doc debian-refcard debian-policy debian-faq lilypond-doc-pdf
  r-doc-pdf xorg-docs krb5-doc libsuitesparse-doc docbook-xsl-doc-pdf fonts-sil-charis
  fonts-sil-andika live-manual-pdf debian-history packaging-tutorial fuzzylite python-nibabel-doc
  gretl-doc parallel auto-multiple-choice-doc-pdf asymptote-doc glpk-doc bash-doc autoconf-doc
  nut-doc gnu-standards why3-doc-pdf yodl-doc)
PIP=(matplotlib==3.11.2 reportlab==5.1.0 weasyprint==70.0 pillow==13.0.0 pypdf==7.1.1
  pypdfium2==5.15.2 numpy scipy)

if [ "${SKIP_INSTALL:-0}" != 1 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${TOOLS[@]}" "${DOCS[@]}" >/dev/null
  "$PY" -m pip install -q "${PIP[@]}"
fi

# ---------------------------------------------------------------------------------------------
# Debian's shipped PDFs
rm -rf "$OUT/debian" && mkdir -p "$OUT/debian"
"$PY" - "$OUT/debian" <<'EOF'
import gzip, hashlib, os, subprocess, sys
out = sys.argv[1]
roots = ["/usr/share/doc", "/usr/share/texlive", "/usr/share/texmf"]
paths = set()
for r in roots:
    for root, dirs, files in os.walk(r, followlinks=False):
        for f in files:
            if f.endswith(".pdf") or f.endswith(".pdf.gz"):
                p = os.path.join(root, f)
                if os.path.isfile(p):
                    paths.add(p)
paths = sorted(paths)
# Owning package of each path (dpkg-query -S); a path it does not know goes by its real path's.
owner = {}
for i in range(0, len(paths), 500):
    chunk = paths[i:i + 500]
    r = subprocess.run(["dpkg-query", "-S"] + chunk + [os.path.realpath(p) for p in chunk],
                       capture_output=True, text=True)
    for line in r.stdout.splitlines():
        pkgs, _, p = line.partition(": ")
        owner.setdefault(p, pkgs.split(",")[0].split(":")[0].strip())
seen_real, groups = set(), {}
for p in paths:
    real = os.path.realpath(p)
    if real in seen_real:
        continue
    seen_real.add(real)
    pkg = owner.get(p) or owner.get(real) or "unknown"
    groups.setdefault(pkg, []).append(p)
h = lambda p: hashlib.sha1(p.encode()).hexdigest()
chosen = []
for pkg in sorted(groups):
    chosen += [(pkg, p) for p in sorted(groups[pkg], key=h)[:25]]
chosen = sorted(chosen, key=lambda x: h(x[1]))[:250]
for pkg, p in sorted(chosen):
    data = open(p, "rb").read()
    if p.endswith(".gz"):
        data = gzip.decompress(data)
    if b"%PDF-" not in data[:1024]:
        continue
    base = os.path.basename(p)[:-3] if p.endswith(".gz") else os.path.basename(p)
    name = f"{pkg}__{base}"
    if os.path.exists(os.path.join(out, name)):
        name = f"{pkg}__{h(p)[:8]}-{base}"
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
print(f"debian: {len(paths)} shipped PDFs in {len(groups)} packages, {len(chosen)} chosen", file=sys.stderr)
EOF

# ---------------------------------------------------------------------------------------------
# A picture for the documents that embed one (deterministic)
"$PY" - "$WORK" <<'EOF'
import sys
from PIL import Image, ImageDraw
w, h = 240, 160
im = Image.new("RGB", (w, h))
px = im.load()
for y in range(h):
    for x in range(w):
        px[x, y] = (x * 255 // w, y * 255 // h, 128 + (x ^ y) % 128)
d = ImageDraw.Draw(im)
d.ellipse((60, 30, 180, 130), outline=(0, 0, 0), width=4)
d.text((90, 70), "bubbles", fill=(255, 255, 255))
im.save(sys.argv[1] + "/picture.png")
im.save(sys.argv[1] + "/picture.jpg", quality=85)
EOF

# ---------------------------------------------------------------------------------------------
# LaTeX: the same three sources through pdfLaTeX, LuaLaTeX and XeLaTeX
cat >"$WORK/math.tex" <<'EOF'
\documentclass[11pt]{article}
\usepackage{amsmath,amssymb}
\begin{document}
\section{Text and mathematics}
The quick brown fox jumps over the lazy dog. \emph{Emphasis}, \textbf{bold}, \texttt{typewriter},
\textsc{Small Caps} and ligatures: fi, fl, ffi --- dashes -- and ``quotes''.
Inline $\alpha^2 + \beta_i = \sqrt{x^2+y^2}$ and displayed:
\begin{equation}
  \int_{-\infty}^{\infty} e^{-x^2}\,dx = \sqrt{\pi}, \qquad
  \sum_{n=1}^{\infty} \frac{1}{n^2} = \frac{\pi^2}{6}.
\end{equation}
\begin{align}
  f(x) &= \begin{cases} x^2 & x \ge 0 \\ -x & x < 0 \end{cases} &
  A &= \begin{pmatrix} a_{11} & a_{12} \\ a_{21} & a_{22} \end{pmatrix}
\end{align}
\subsection{A paragraph}
Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut
labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris
nisi ut aliquip ex ea commodo consequat. $\mathbb{R}^n$, $\mathcal{L}$, $\nabla \cdot \vec{E} =
\rho/\varepsilon_0$. {\small Small text,} {\large large text,} {\Huge Huge.}
\begin{itemize}\item first item \item second item with $\lim_{x\to 0} \frac{\sin x}{x} = 1$\end{itemize}
\end{document}
EOF
cat >"$WORK/table.tex" <<'EOF'
\documentclass{article}
\usepackage[table]{xcolor}
\usepackage{booktabs}
\begin{document}
\section*{Tables}
\begin{tabular}{lrrr}
\toprule
Region & 2014 & 2015 & Change \\
\midrule
North & 1\,204 & 1\,350 & +12.1\,\% \\
South & 980 & 955 & $-2.6$\,\% \\
East & 1\,511 & 1\,620 & +7.2\,\% \\
\bottomrule
\end{tabular}
\bigskip

\rowcolors{2}{gray!15}{white}
\begin{tabular}{|l|c|p{5cm}|}
\hline
\rowcolor{blue!30}\textbf{Key} & \textbf{Value} & \textbf{Description} \\
\hline
alpha & 1 & A longer cell whose text wraps over more than one line in a paragraph column. \\
beta & 2 & Short. \\
\multicolumn{2}{|c|}{merged} & \textcolor{red}{red text} \\
gamma & 3 & \textit{italic} \\
\hline
\end{tabular}
\end{document}
EOF
cat >"$WORK/figure.tex" <<'EOF'
\documentclass{article}
\usepackage{graphicx}
\usepackage{xcolor}
\begin{document}
\section*{A figure}
\begin{figure}[h]
\centering
\setlength{\unitlength}{1mm}
\begin{picture}(100,60)
\put(0,0){\line(1,0){100}}\put(0,0){\line(0,1){60}}
\put(0,0){\vector(2,1){80}}\put(50,30){\circle{20}}\put(50,30){\circle*{3}}
\put(10,45){\framebox(30,10){box}}\put(60,50){\oval(30,12)}
\multiput(5,5)(10,0){10}{\line(0,1){3}}
\qbezier(0,60)(50,0)(100,60)
\end{picture}
\caption{The picture environment.}
\end{figure}
\begin{figure}[h]
\centering
\includegraphics[width=5cm]{picture.png}\quad\includegraphics[width=5cm,angle=15]{picture.jpg}
\caption{A PNG and a rotated JPEG.}
\end{figure}
\colorbox{yellow}{highlighted} \fcolorbox{red}{white}{framed} \rule{3cm}{2mm}
\textcolor{blue}{\rule{1cm}{1cm}}
\end{document}
EOF
for engine in pdflatex lualatex xelatex; do
  mkdir -p "$OUT/$engine"
  for doc in math table figure; do
    (cd "$WORK" && $engine -interaction=nonstopmode -halt-on-error -jobname="$engine-$doc" "$doc.tex" >/dev/null 2>&1 \
      && cp "$engine-$doc.pdf" "$OUT/$engine/$doc.pdf") || echo "$engine $doc failed (see $WORK/$engine-$doc.log)" >&2
  done
done

# ---------------------------------------------------------------------------------------------
# LibreOffice Writer: flat ODT with text, a table, an image and shapes
mkdir -p "$OUT/libreoffice"
"$PY" - "$WORK" <<'EOF'
import base64, sys
work = sys.argv[1]
img = base64.b64encode(open(work + "/picture.png", "rb").read()).decode()
def doc(font, title, rows, extra):
    cells = "".join(
        "<table:table-row>" + "".join(
            f'<table:table-cell table:style-name="{"Head" if i == 0 else "Cell"}" office:value-type="string">'
            f'<text:p>{c}</text:p></table:table-cell>' for c in r) + "</table:table-row>"
        for i, r in enumerate(rows))
    return f'''<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 xmlns:xlink="http://www.w3.org/1999/xlink"
 xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"
 xmlns:dc="http://purl.org/dc/elements/1.1/"
 office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:meta><dc:title>{title}</dc:title></office:meta>
<office:font-face-decls><style:font-face style:name="{font}" svg:font-family="'{font}'"/></office:font-face-decls>
<office:styles>
 <style:default-style style:family="paragraph"><style:text-properties style:font-name="{font}" fo:font-size="11pt"/></style:default-style>
 <style:style style:name="Heading" style:family="paragraph"><style:text-properties fo:font-size="20pt" fo:font-weight="bold" fo:color="#1f3a93"/></style:style>
</office:styles>
<office:automatic-styles>
 <style:style style:name="Cell" style:family="table-cell"><style:table-cell-properties fo:border="0.5pt solid #000000" fo:padding="0.05cm"/></style:style>
 <style:style style:name="Head" style:family="table-cell"><style:table-cell-properties fo:border="0.5pt solid #000000" fo:background-color="#c6d9f1" fo:padding="0.05cm"/></style:style>
 <style:style style:name="B" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>
 <style:style style:name="I" style:family="text"><style:text-properties fo:font-style="italic" fo:color="#a00000"/></style:style>
 <style:style style:name="gr1" style:family="graphic"><style:graphic-properties draw:fill="solid" draw:fill-color="#ffcc00" svg:stroke-color="#333333" draw:stroke="solid"/></style:style>
</office:automatic-styles>
<office:body><office:text>
 <text:h text:style-name="Heading" text:outline-level="1">{title}</text:h>
 <text:p>The quick brown fox jumps over the lazy dog. <text:span text:style-name="B">Bold text,</text:span>
 <text:span text:style-name="I">italic red text,</text:span> and ordinary text that runs on long enough to wrap
 over several lines of the page so that justification and line breaking show. Lorem ipsum dolor sit amet,
 consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</text:p>
 <table:table table:name="T1"><table:table-column table:number-columns-repeated="{len(rows[0])}"/>{cells}</table:table>
 <text:p>An image:</text:p>
 <text:p><draw:frame draw:name="img" text:anchor-type="as-char" svg:width="6cm" svg:height="4cm">
  <draw:image><office:binary-data>{img}</office:binary-data></draw:image></draw:frame></text:p>
 {extra}
</office:text></office:body></office:document>'''
shapes = ('<text:p><draw:rect draw:style-name="gr1" text:anchor-type="as-char" svg:width="4cm" svg:height="2cm"/> '
          '<draw:ellipse draw:style-name="gr1" text:anchor-type="as-char" svg:width="3cm" svg:height="2cm"/></text:p>')
lst = "<text:list>" + "".join(f"<text:list-item><text:p>List item {i}</text:p></text:list-item>" for i in range(1, 6)) + "</text:list>"
open(work + "/lo-serif.fodt", "w").write(doc("DejaVu Serif", "Quarterly figures",
    [["Item", "Q1", "Q2", "Q3"], ["Apples", "10", "12", "9"], ["Pears", "7", "8", "11"], ["Plums", "3", "5", "4"]], shapes))
open(work + "/lo-sans.fodt", "w").write(doc("DejaVu Sans", "Inventory list",
    [["Code", "Name", "Count"], ["A-1", "Widget", "120"], ["B-7", "Gadget", "45"]], lst + shapes))
open(work + "/lo-charis.fodt", "w").write(doc("Charis SIL", "Résumé — naïve café",
    [["Ελληνικά", "Кириллица", "Latin"], ["α β γ", "а б в", "a b c"]], lst))
EOF
if command -v soffice >/dev/null; then
  (cd "$WORK" && soffice -env:UserInstallation=file://$WORK/lo-profile --headless --convert-to pdf \
    --outdir "$OUT/libreoffice" lo-serif.fodt lo-sans.fodt lo-charis.fodt >/dev/null 2>&1) \
    || echo "libreoffice conversion failed" >&2
fi

# ---------------------------------------------------------------------------------------------
# matplotlib: four figures, Type 3 fonts (default) and TrueType (pdf.fonttype 42)
mkdir -p "$OUT/matplotlib"
"$PY" - "$OUT/matplotlib" <<'EOF'
import sys
import matplotlib
matplotlib.use("pdf")
import matplotlib.pyplot as plt
import numpy as np
out = sys.argv[1]
rng = np.random.default_rng(7)
def lines():
    fig, ax = plt.subplots(figsize=(6.4, 4.8))
    x = np.linspace(0, 10, 400)
    for k in range(1, 4):
        ax.plot(x, np.sin(k * x) / k, label=f"$\\sin({k}x)/{k}$")
    ax.set_title("Lines and a legend"); ax.set_xlabel("time (s)"); ax.set_ylabel("value")
    ax.legend(); ax.grid(True, alpha=0.4)
    return fig
def scatter():
    fig, ax = plt.subplots(figsize=(6, 6))
    x, y = rng.normal(size=300), rng.normal(size=300)
    ax.scatter(x, y, c=x * y, s=40 * np.abs(y) + 5, cmap="viridis", alpha=0.7, edgecolors="k")
    ax.text(-2, 2, r"$\rho = \frac{\sum (x-\bar x)(y-\bar y)}{n\,\sigma_x\sigma_y}$", fontsize=14)
    ax.set_title("Scatter with mathtext")
    return fig
def bars():
    fig, (a, b) = plt.subplots(1, 2, figsize=(8, 4))
    a.bar(["A", "B", "C", "D"], [3, 7, 2, 5], color=["C0", "C1", "C2", "C3"], hatch="//")
    b.barh(range(5), rng.uniform(1, 9, 5), xerr=0.5)
    a.set_title("Bars, hatched"); b.set_title("Horizontal bars")
    fig.tight_layout()
    return fig
def image():
    fig, (a, b) = plt.subplots(1, 2, figsize=(8, 3.6))
    z = np.outer(np.sin(np.linspace(0, 6, 60)), np.cos(np.linspace(0, 4, 80)))
    im = a.imshow(z, cmap="magma", interpolation="nearest"); fig.colorbar(im, ax=a)
    X, Y = np.meshgrid(np.linspace(-2, 2, 100), np.linspace(-2, 2, 100))
    cs = b.contourf(X, Y, np.exp(-X**2 - Y**2) * np.cos(3 * X), 12, cmap="coolwarm")
    b.contour(cs, colors="k", linewidths=0.5)
    a.set_title("imshow"); b.set_title("contourf")
    return fig
for fonttype in (3, 42):
    matplotlib.rcParams["pdf.fonttype"] = fonttype
    for name, make in [("lines", lines), ("scatter", scatter), ("bars", bars), ("image", image)]:
        fig = make()
        fig.savefig(f"{out}/{name}-type{fonttype}.pdf", metadata={"CreationDate": None})
        plt.close(fig)
EOF

# ---------------------------------------------------------------------------------------------
# ReportLab: standard-14 fonts (not embedded), shapes, a table
mkdir -p "$OUT/reportlab"
"$PY" - "$OUT/reportlab" <<'EOF'
import sys
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, letter
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.pdfgen import canvas
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
out = sys.argv[1]
# Text in each of the standard 14 fonts
c = canvas.Canvas(f"{out}/fonts.pdf", pagesize=A4, invariant=1)
y = 800
for font in ["Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique",
             "Times-Roman", "Times-Bold", "Times-Italic", "Times-BoldItalic", "Courier",
             "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique"]:
    c.setFont(font, 14); c.drawString(60, y, f"{font}: The quick brown fox jumps over the lazy dog 0123")
    y -= 26
c.setFont("Symbol", 16); c.drawString(60, y, "abgdpqSWF"); y -= 26
c.setFont("ZapfDingbats", 16); c.drawString(60, y, "3456789nopq"); y -= 40
for i, size in enumerate([6, 8, 10, 12, 18, 24, 36]):
    c.setFont("Times-Roman", size); c.drawString(60, y, f"{size} pt"); y -= size + 6
c.save()
# Shapes: strokes, fills, dashes, Bezier curves, transparency, rotation
c = canvas.Canvas(f"{out}/shapes.pdf", pagesize=letter, invariant=1)
c.setLineWidth(3); c.setStrokeColor(colors.navy); c.setFillColor(colors.lightblue)
c.rect(60, 560, 200, 150, fill=1)
c.setFillColor(colors.orange); c.circle(400, 640, 70, fill=1, stroke=1)
c.setDash(6, 3); c.setStrokeColor(colors.red); c.line(60, 520, 550, 520); c.setDash()
p = c.beginPath(); p.moveTo(60, 300); p.curveTo(150, 500, 300, 100, 550, 300)
c.setStrokeColor(colors.darkgreen); c.setLineWidth(5); c.drawPath(p, stroke=1, fill=0)
c.setFillAlpha(0.5); c.setFillColor(colors.green); c.roundRect(100, 150, 250, 120, 20, fill=1, stroke=0)
c.setFillColor(colors.purple); c.ellipse(250, 100, 500, 250, fill=1, stroke=0); c.setFillAlpha(1)
c.saveState(); c.translate(300, 60); c.rotate(20); c.setFillColor(colors.black)
c.setFont("Helvetica-Bold", 20); c.drawString(0, 0, "Rotated text"); c.restoreState()
c.setLineWidth(1)
for i in range(20):
    c.setStrokeColorRGB(i / 20, 0, 1 - i / 20); c.line(60 + i * 25, 40, 80 + i * 25, 90)
c.save()
# A table and paragraphs (Platypus)
styles = getSampleStyleSheet()
doc = SimpleDocTemplate(f"{out}/table.pdf", pagesize=A4, invariant=1, title="Table")
data = [["Product", "Units", "Price", "Total"]] + [
    [f"Item {i}", str(i * 3), f"{i * 1.25:.2f}", f"{i * i * 3.75:.2f}"] for i in range(1, 16)]
t = Table(data, colWidths=[150, 80, 80, 80])
t.setStyle(TableStyle([
    ("BACKGROUND", (0, 0), (-1, 0), colors.darkblue), ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
    ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"), ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
    ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.lightgrey]),
    ("ALIGN", (1, 1), (-1, -1), "RIGHT")]))
story = [Paragraph("Sales table", styles["Title"]),
         Paragraph("Generated with ReportLab's Platypus; the fonts are the standard 14, "
                   "<b>not embedded</b>, so the viewer substitutes its own. " * 3, styles["BodyText"]),
         Spacer(1, 12), t]
doc.build(story)
EOF

# ---------------------------------------------------------------------------------------------
# WeasyPrint: HTML with CSS
mkdir -p "$OUT/weasyprint"
"$PY" - "$OUT/weasyprint" "$WORK/picture.png" <<'EOF'
import sys
from weasyprint import HTML
out, pic = sys.argv[1], sys.argv[2]
css = """@page { size: A4; margin: 2cm; @bottom-center { content: "Page " counter(page); } }
body { font-family: 'DejaVu Serif', serif; font-size: 11pt; line-height: 1.4; }
h1 { font-family: 'DejaVu Sans', sans-serif; color: #1f3a93; border-bottom: 2px solid #1f3a93; }"""
docs = {
"article": f"""<html><head><style>{css} p {{ text-align: justify; hyphens: auto; }}
.note {{ background: #fff3cd; border-left: 6px solid #e0a800; padding: 8px; }}</style></head><body lang="en">
<h1>Typography</h1><p>The quick brown fox jumps over the lazy dog. <b>Bold</b>, <i>italic</i>,
<code>code</code>, <small>small</small>, <sup>super</sup> and <sub>sub</sub>. """ + "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 12 + """</p>
<p class="note">A note with a coloured border and background.</p>
<ul><li>First</li><li>Second, with a <a href="https://example.org">link</a></li></ul>
<blockquote style="font-style: italic; margin-left: 2em">A quotation in italics, indented.</blockquote></body></html>""",
"table": f"""<html><head><style>{css} table {{ border-collapse: collapse; width: 100%; }}
th {{ background: #2d4a8a; color: white; }} td, th {{ border: 1px solid #999; padding: 4px 8px; }}
tr:nth-child(even) td {{ background: #eef; }} td.num {{ text-align: right; font-variant-numeric: tabular-nums; }}
</style></head><body><h1>Quarterly report</h1><table><tr><th>Region</th><th>Q1</th><th>Q2</th><th>Q3</th><th>Q4</th></tr>"""
 + "".join(f"<tr><td>Region {i}</td>" + "".join(f'<td class="num">{(i * 37 + q * 11) % 900 + 100}</td>' for q in range(4)) + "</tr>" for i in range(1, 25))
 + "</table></body></html>",
"boxes": f"""<html><head><style>{css}
.row {{ display: flex; gap: 12px; margin: 12px 0; }}
.box {{ flex: 1; height: 90px; border-radius: 14px; color: white; padding: 10px; font-family: 'DejaVu Sans'; }}
.a {{ background: linear-gradient(135deg, #ff512f, #dd2476); }} .b {{ background: radial-gradient(circle, #36d1dc, #5b86e5); }}
.c {{ background: #333; box-shadow: 4px 4px 0 #999; opacity: 0.8; }} .d {{ border: 4px dashed #e67e22; color: #e67e22; }}
img {{ width: 45%; transform: rotate(-5deg); }}</style></head><body><h1>Boxes, gradients, SVG</h1>
<div class="row"><div class="box a">linear gradient</div><div class="box b">radial gradient</div></div>
<div class="row"><div class="box c">shadow, opacity</div><div class="box d">dashed border</div></div>
<svg width="400" height="160" xmlns="http://www.w3.org/2000/svg"><rect x="10" y="10" width="120" height="80" fill="#8e44ad" stroke="black" stroke-width="3"/>
<circle cx="220" cy="70" r="55" fill="none" stroke="#16a085" stroke-width="8" stroke-dasharray="12 6"/>
<path d="M300 140 Q340 0 390 140 Z" fill="#f1c40f" fill-opacity="0.7"/><text x="20" y="140" font-size="22" font-family="DejaVu Sans">SVG text</text></svg>
<p><img src="file://{pic}"></p></body></html>""",
}
for name, html in docs.items():
    HTML(string=html).write_pdf(f"{out}/{name}.pdf", uncompressed_pdf=False)
EOF

# ---------------------------------------------------------------------------------------------
# groff (gropdf) and Ghostscript (ps2pdf)
mkdir -p "$OUT/groff" "$OUT/ghostscript"
cat >"$WORK/ms.ms" <<'EOF'
.TL
A groff document
.AU
The Bubbles project
.NH
Introduction
.PP
The quick brown fox jumps over the lazy dog.
This paragraph is set with the \fBms\fP macros, with \fIitalic\fP and \f(CWconstant width\fP text,
filled and adjusted over several lines so that the page shows justification.
Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore
et dolore magna aliqua.
.NH
A table and an equation
.TS
center box tab(:);
cb | cb | cb
l | n | n.
Name:Count:Share
_
alpha:12:0.30
beta:28:0.70
.TE
.EQ
x = {-b +- sqrt {b sup 2 - 4ac}} over 2a
.EN
.IP \(bu
A bullet point.
.IP \(bu
Another one, with a \s+4larger\s0 word.
EOF
cat >"$WORK/tool.1" <<'EOF'
.TH TOOL 1 "January 2000" "bubbles" "User Commands"
.SH NAME
tool \- does something useful
.SH SYNOPSIS
.B tool
[\fB\-v\fR] [\fB\-o\fR \fIfile\fR] \fIinput\fR...
.SH DESCRIPTION
.B tool
reads each \fIinput\fR and writes the result.
.TP
.BR \-v ", " \-\-verbose
Say more.
.TP
.BR \-o " \fIfile\fR"
Write to \fIfile\fR instead of standard output.
.SH "SEE ALSO"
.BR other (1)
EOF
(cd "$WORK" && groff -ms -t -e -Tpdf ms.ms >"$OUT/groff/ms.pdf" && groff -man -Tpdf tool.1 >"$OUT/groff/man.pdf" \
  && groff -ms -t -e -Tps ms.ms >ms.ps && groff -man -Tps tool.1 >man.ps) || echo "groff failed" >&2
cat >"$WORK/shapes.ps" <<'EOF'
%!PS-Adobe-3.0
%%BoundingBox: 0 0 612 792
%%Pages: 1
%%Page: 1 1
/Times-Roman findfont 28 scalefont setfont 72 700 moveto (PostScript by hand) show
/Helvetica-Bold findfont 14 scalefont setfont 72 670 moveto (Helvetica-Bold, red) 1 0 0 setrgbcolor show
0 0 0.6 setrgbcolor 8 setlinewidth 72 450 moveto 200 600 lineto 330 450 lineto closepath stroke
0.2 0.7 0.2 setrgbcolor 450 520 80 0 360 arc fill
0 setgray 1 setlinewidth [6 4] 0 setdash 72 400 moveto 540 400 lineto stroke [] 0 setdash
gsave 300 250 translate 30 rotate 0.9 0.6 0 setrgbcolor -80 -40 160 80 rectfill grestore
<< /ShadingType 2 /ColorSpace /DeviceRGB /Coords [72 72 540 72]
   /Function << /FunctionType 2 /Domain [0 1] /C0 [1 0 0] /C1 [0 0 1] /N 1 >> /Extend [true true] >>
gsave 72 72 468 100 rectclip shfill grestore
showpage
%%EOF
EOF
cat >"$WORK/image.ps" <<'EOF'
%!PS-Adobe-3.0
%%BoundingBox: 0 0 595 842
%%Pages: 1
%%Page: 1 1
/Courier findfont 12 scalefont setfont 72 780 moveto (A sampled image and a mask) show
gsave 72 400 translate 300 300 scale
64 64 8 [64 0 0 -64 0 64]
/row 64 string def /y 0 def
{ 0 1 63 { row exch dup 4 mul y add 255 and put } for /y y 4 add def row } image
grestore
gsave 400 500 translate 120 120 scale 1 0 0 setrgbcolor
16 16 true [16 0 0 -16 0 16] { <aaaa5555aaaa5555aaaa5555aaaa5555aaaa5555aaaa5555aaaa5555aaaa5555> } imagemask
grestore
/Times-Italic findfont 40 scalefont setfont 72 200 moveto (Times-Italic 40) show
showpage
%%EOF
EOF
for f in shapes image ms man; do
  [ -f "$WORK/$f.ps" ] || continue
  ps2pdf -dOmitInfoDate -dOmitID -dOmitXMP "$WORK/$f.ps" "$OUT/ghostscript/$f.pdf" 2>/dev/null \
    || { rm -f "$OUT/ghostscript/$f.pdf"; echo "ps2pdf $f failed" >&2; }
done

# ---------------------------------------------------------------------------------------------
# Cairo (Debian's python3-cairo)
mkdir -p "$OUT/cairo"
"$SYSPY" - "$OUT/cairo" "$WORK/picture.png" <<'EOF' || echo "cairo documents failed (python3-cairo?)" >&2
import math, sys
import cairo
out, pic = sys.argv[1], sys.argv[2]
def surface(name, w=595, h=842):
    s = cairo.PDFSurface(f"{out}/{name}.pdf", w, h)
    try:
        s.set_metadata(cairo.PDFMetadata.CREATE_DATE, "2000-01-01T00:00:00Z")
    except Exception:
        pass
    return s, cairo.Context(s)
s, c = surface("text")
for i, (face, slant, weight) in enumerate([("DejaVu Serif", 0, 0), ("DejaVu Sans", 0, 1), ("DejaVu Sans Mono", 1, 0),
                                           ("Charis SIL", 1, 1), ("Latin Modern Roman", 0, 0)]):
    c.select_font_face(face, slant, weight); c.set_font_size(18 + 4 * i)
    c.move_to(50, 80 + 60 * i); c.show_text(f"{face}: quick brown fox")
c.select_font_face("DejaVu Sans"); c.set_font_size(12)
for i in range(20):
    c.move_to(50, 420 + 18 * i); c.show_text("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod " + str(i))
s.finish()
s, c = surface("shapes")
lg = cairo.LinearGradient(50, 50, 545, 50); lg.add_color_stop_rgb(0, 1, 0.3, 0); lg.add_color_stop_rgb(1, 0, 0.3, 1)
c.rectangle(50, 50, 495, 120); c.set_source(lg); c.fill()
rg = cairo.RadialGradient(200, 330, 10, 200, 330, 120); rg.add_color_stop_rgba(0, 1, 1, 1, 1); rg.add_color_stop_rgba(1, 0, 0.5, 0, 1)
c.arc(200, 330, 120, 0, 2 * math.pi); c.set_source(rg); c.fill()
c.set_source_rgba(0.8, 0, 0.8, 0.5); c.rectangle(250, 250, 250, 160); c.fill()
c.set_source_rgb(0, 0, 0); c.set_line_width(6); c.set_dash([20, 8]); c.move_to(50, 500)
c.curve_to(200, 700, 400, 300, 545, 500); c.stroke(); c.set_dash([])
c.set_line_width(12); c.set_line_join(cairo.LINE_JOIN_ROUND); c.set_line_cap(cairo.LINE_CAP_ROUND)
c.move_to(80, 780); c.line_to(180, 620); c.line_to(280, 780); c.stroke()
c.set_fill_rule(cairo.FILL_RULE_EVEN_ODD); c.set_source_rgb(0.1, 0.5, 0.6)
c.rectangle(350, 600, 180, 180); c.arc(440, 690, 60, 0, 2 * math.pi); c.fill()
s.finish()
s, c = surface("image", 612, 792)
img = cairo.ImageSurface.create_from_png(pic)
c.save(); c.translate(60, 60); c.scale(2, 2); c.set_source_surface(img, 0, 0); c.paint(); c.restore()
c.save(); c.translate(330, 400); c.rotate(0.3); c.scale(1.2, 1.2); c.set_source_surface(img, 0, 0); c.paint_with_alpha(0.6); c.restore()
c.select_font_face("DejaVu Sans"); c.set_font_size(24); c.set_source_rgb(0, 0, 0); c.move_to(60, 740); c.show_text("Images, scaled and rotated")
s.finish()
EOF

# ---------------------------------------------------------------------------------------------
# pdf.js's test PDFs (only from a checkout or git directory given on the command line)
if [ -n "$PDFJS" ]; then
  mkdir -p "$OUT/pdfjs"
  if [ -d "$PDFJS/test/pdfs" ]; then
    find "$PDFJS/test/pdfs" -maxdepth 1 -type f -name '*.pdf' -exec cp {} "$OUT/pdfjs/" \;
  elif git --git-dir="$PDFJS" rev-parse --verify -q HEAD >/dev/null; then
    git --git-dir="$PDFJS" ls-tree HEAD test/pdfs/ | while read -r mode type obj path; do
      case "$path" in *.pdf) ;; *) continue ;; esac
      [ "$type" = blob ] || continue
      git --git-dir="$PDFJS" cat-file blob "$obj" >"$OUT/pdfjs/$(basename "$path")" 2>/dev/null \
        || rm -f "$OUT/pdfjs/$(basename "$path")"
    done
  else
    echo "$PDFJS: neither a pdf.js checkout nor a git directory" >&2
  fi
  # Git LFS pointers and empty files are not PDFs (files with junk before the header are kept)
  for f in "$OUT"/pdfjs/*.pdf; do
    if [ ! -s "$f" ] || head -c 40 "$f" | grep -aq '^version https://git-lfs'; then rm -f "$f"; fi
  done
fi

echo "corpus in $OUT:"
for d in "$OUT"/*/; do
  printf '  %-12s %4d\n' "$(basename "$d")" "$(find "$d" -name '*.pdf' | wc -l)"
done
