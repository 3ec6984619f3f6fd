#!/usr/bin/env python3
"""Writes the glyph-name and encoding tables of PDF simple fonts, in four files of
Sources/PDFRender: GlyphTables.swift (the lookups), GlyphTables+Encodings.swift (the six
encodings), GlyphTables+AGL.swift (the Adobe Glyph List, as text) and GlyphTables+AGLFN.swift
(the Adobe Glyph List For New Fonts and the ITC Zapf Dingbats Glyph List, as text).

Usage: scripts/generate-glyph-tables.py [--check]
  (no argument)  write the Swift files
  --check        write nothing; exit 1 if a Swift file differs from what this script makes

Needs fontTools (pip install fonttools). Deterministic: the same inputs give the same bytes (every
table is written in a fixed order; no dates, versions or paths go into the output).

Where each table comes from, and its licence:
- The Adobe Glyph List (glyphlist.txt, table version 2.0, 4 281 names), the Adobe Glyph List For
  New Fonts (aglfn.txt, table version 1.7, 586 names) and the ITC Zapf Dingbats Glyph List
  (zapfdingbats.txt, table version 2.0, 201 names): Adobe's agl-aglfn data, Copyright 2002-2019
  Adobe, BSD 3-Clause licence (ADOBE_LICENSE below; the generated file repeats it). Read through
  fontTools.agl (fontTools is MIT), which carries those files unchanged: LEGACY_AGL2UV is
  glyphlist.txt, UV2AGL is aglfn.txt, and toUnicode(name, isZapfDingbats=True) answers from
  zapfdingbats.txt.
- StandardEncoding: fontTools.encodings.StandardEncoding (MIT), Adobe's StandardEncoding as in
  PDF 32000-1 Annex D.2, taken as it is.
- MacRomanEncoding: fontTools.encodings.MacRoman (MIT), the Mac OS Roman glyph order, changed as
  PDF 32000-1 Annex D.2 and pdf.js have it: no glyph for the control codes 00-1F and 7F, "space"
  (not "nbspace") at CA (Annex D footnote), "currency" (not "Euro") at DB. The 15 Mac OS entries
  that Annex D's table leaves out (notequal AD, infinity B0, lessequal B2, greaterequal B3,
  partialdiff B6, summation B7, product B8, pi B9, integral BA, Omega BD, radical C3,
  approxequal C5, Delta C6, lozenge D7, apple F0) are kept, as pdf.js keeps them.
- WinAnsiEncoding: Python's cp1252 codec for the code-to-Unicode table and the AGLFN name of
  each Unicode value (the AGL's only name for U+00B2, U+00B3 and U+00B9, which AGLFN 1.7 does
  not name: twosuperior, threesuperior, onesuperior), with PDF 32000-1 Annex D.2's footnotes: "space" also at A0, "hyphen" also
  at AD, and the codes above 20 that Windows-1252 leaves undefined (7F, 81, 8D, 8F, 90, 9D)
  mapped to "bullet". No glyph for 00-1F. This is exactly pdf.js's WinAnsiEncoding.
- MacExpertEncoding, the Symbol font's built-in encoding and ZapfDingbats' built-in encoding:
  scripts/data/pdf-encodings.txt, this repository's transcription of PDF 32000-1 Annex D.4-D.6
  (Apache-2.0 like the rest of the repository); see that file's header.
"""
import codecs
import os
import sys

try:
    from fontTools import agl
    from fontTools.encodings.MacRoman import MacRoman
    from fontTools.encodings.StandardEncoding import StandardEncoding
except ImportError:
    sys.exit("generate-glyph-tables.py needs fontTools: pip install fonttools")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT_DIR = os.path.join(ROOT, "Sources", "PDFRender")
LOOKUPS = "GlyphTables.swift"
ENCODINGS = "GlyphTables+Encodings.swift"
AGL_FILE = "GlyphTables+AGL.swift"
AGLFN_FILE = "GlyphTables+AGLFN.swift"
# The widest line of the glyph lists' text (records are never cut), so that no generated file
# passes 700 lines.
RECORDS_WIDTH = 132
ENCODINGS_DATA = os.path.join(ROOT, "scripts", "data", "pdf-encodings.txt")

ADOBE_LICENSE = """\
Copyright 2002-2019 Adobe (http://www.adobe.com/).

Redistribution and use in source and binary forms, with or
without modification, are permitted provided that the
following conditions are met:

Redistributions of source code must retain the above
copyright notice, this list of conditions and the following
disclaimer.

Redistributions in binary form must reproduce the above
copyright notice, this list of conditions and the following
disclaimer in the documentation and/or other materials
provided with the distribution.

Neither the name of Adobe nor the names of its contributors
may be used to endorse or promote products derived from this
software without specific prior written permission.

THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND
CONTRIBUTORS "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES,
INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF
MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR
CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL,
SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT
NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES;
LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION)
HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN
CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR
OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS
SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
"""

# The sizes of Adobe's lists as fontTools carries them today: a change means new data, which
# should be looked at (and the counts in the module docstring updated) before it is taken.
AGL_COUNT = 4281
AGLFN_COUNT = 586
DINGBATS_COUNT = 201


def fail(message):
    sys.exit("generate-glyph-tables.py: " + message)


def is_name(s):
    return s.isascii() and s.isalnum()


# --- The glyph lists -------------------------------------------------------------------------

def glyph_list():
    """[(name, [scalars])] of the AGL, sorted by name."""
    table = sorted((name, list(values)) for name, values in agl.LEGACY_AGL2UV.items())
    if len(table) != AGL_COUNT:
        fail("fontTools' AGL has %d names, expected %d" % (len(table), AGL_COUNT))
    for name, values in table:
        if not is_name(name) or not values or any(not 0 <= v <= 0xFFFF for v in values):
            fail("unexpected AGL entry %r" % name)
    return table


def preferred_names():
    """[(name, scalar)] of the AGLFN, sorted by scalar."""
    table = sorted((uv, name) for uv, name in agl.UV2AGL.items())
    if len(table) != AGLFN_COUNT or len(set(name for _, name in table)) != AGLFN_COUNT:
        fail("fontTools' AGLFN has %d entries, expected %d unique" % (len(table), AGLFN_COUNT))
    for uv, name in table:
        if not is_name(name) or agl.LEGACY_AGL2UV.get(name) not in ([uv], None):
            fail("unexpected AGLFN entry %r" % name)
    return [(name, uv) for uv, name in table]


def dingbats_list():
    """[(name, scalar)] of the ITC Zapf Dingbats Glyph List ("a1" ... "a206"), sorted by number."""
    table = []
    for number in range(1, 1000):
        name = "a%d" % number
        text = agl.toUnicode(name, isZapfDingbats=True)
        if text and text != agl.toUnicode(name):
            if len(text) != 1:
                fail("dingbat %s maps to %r" % (name, text))
            table.append((name, ord(text)))
    if len(table) != DINGBATS_COUNT:
        fail("fontTools' Zapf Dingbats list has %d names, expected %d" % (len(table), DINGBATS_COUNT))
    return table


# --- The encodings ---------------------------------------------------------------------------

def standard_encoding():
    enc = [None if n == ".notdef" else n for n in StandardEncoding]
    if len(enc) != 256:
        fail("StandardEncoding has %d codes" % len(enc))
    return enc


def mac_roman_encoding():
    if len(MacRoman) != 256:
        fail("MacRoman has %d codes" % len(MacRoman))
    enc = [None if code < 0x20 or code == 0x7F or n == ".notdef" else n for code, n in enumerate(MacRoman)]
    if enc[0xCA] != "nbspace" or enc[0xDB] != "currency":
        fail("fontTools' MacRoman changed at CA or DB")
    enc[0xCA] = "space"  # Annex D: "space" is also encoded as 312 (octal) in MacRomanEncoding.
    return enc


def win_ansi_encoding():
    enc = [None] * 256
    for code in range(0x20, 0x100):
        try:
            text = bytes([code]).decode("cp1252")
        except UnicodeDecodeError:
            continue
        if code == 0x7F:
            continue  # DEL: undefined in WinAnsiEncoding, given "bullet" below
        name = agl.UV2AGL.get(ord(text))
        if name is None:
            # AGLFN 1.7 has no name for U+00B2, U+00B3 and U+00B9: take the AGL's, when it has one.
            names = [n for n, values in agl.LEGACY_AGL2UV.items() if values == [ord(text)]]
            name = names[0] if len(names) == 1 else None
        if code == 0xA0:
            name = "space"  # Annex D: "space" is also encoded as 240 (octal).
        elif code == 0xAD:
            name = "hyphen"  # Annex D: "hyphen" is also encoded as 255 (octal).
        if name is None:
            fail("no AGLFN name for cp1252 code %02X (U+%04X)" % (code, ord(text)))
        enc[code] = name
    for code in range(0x21, 0x100):
        # Annex D: "all unused codes greater than 40 (octal) map to the bullet character".
        if enc[code] is None:
            enc[code] = "bullet"
    if [c for c in range(256) if enc[c] == "bullet"] != [0x7F, 0x81, 0x8D, 0x8F, 0x90, 0x95, 0x9D]:
        fail("unexpected bullet codes in WinAnsiEncoding")
    return enc


def data_file_encodings():
    """{name: [256 names or None]} from scripts/data/pdf-encodings.txt."""
    tables = {}
    current = None
    with open(ENCODINGS_DATA, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = line.split()
            where = "%s:%d" % (os.path.relpath(ENCODINGS_DATA, ROOT), number)
            if fields[0] == "encoding" and len(fields) == 2:
                if fields[1] in tables:
                    fail(where + ": encoding %s given twice" % fields[1])
                current = tables[fields[1]] = [None] * 256
                continue
            if current is None or len(fields) != 2 or len(fields[0]) != 2 or not is_name(fields[1]):
                fail(where + ": not 'HEX NAME'")
            code = int(fields[0], 16)
            if current[code] is not None:
                fail(where + ": code %s given twice" % fields[0])
            current[code] = fields[1]
    if sorted(tables) != ["MacExpertEncoding", "SymbolEncoding", "ZapfDingbatsEncoding"]:
        fail("%s has the encodings %s" % (ENCODINGS_DATA, sorted(tables)))
    return tables


# --- Checks of the result --------------------------------------------------------------------

def check(encodings, agl_table, dingbats):
    aglmap = dict(agl_table)
    expected = [
        (encodings["standardEncoding"][0x27], "quoteright"),
        (encodings["standardEncoding"][0x60], "quoteleft"),
        (encodings["winAnsiEncoding"][0x80], "Euro"),
        (encodings["winAnsiEncoding"][0x27], "quotesingle"),
        (encodings["macRomanEncoding"][0xDB], "currency"),
        (encodings["macRomanEncoding"][0xCA], "space"),
        (encodings["macExpertEncoding"][0x56], "ff"),
        (encodings["symbolEncoding"][0x61], "alpha"),
        (encodings["symbolEncoding"][0xA0], "Euro"),
        (encodings["zapfDingbatsEncoding"][0x21], "a1"),
        (encodings["zapfDingbatsEncoding"][0x80], "a89"),
        (aglmap["A"], [0x41]),
        (aglmap["Delta"], [0x2206]),
        (dict(dingbats)["a1"], 0x2701),
    ]
    for got, want in expected:
        if got != want:
            fail("self-check: got %r, expected %r" % (got, want))
    for key, enc in encodings.items():
        if len(enc) != 256 or any(n is not None and not is_name(n) for n in enc):
            fail("bad encoding %s" % key)
    for key in ("standardEncoding", "winAnsiEncoding", "macRomanEncoding", "macExpertEncoding", "symbolEncoding"):
        for code, name in enumerate(encodings[key]):
            if name is not None and name not in aglmap:
                fail("%s[%02X] = %s is not in the AGL" % (key, code, name))
    for code, name in enumerate(encodings["zapfDingbatsEncoding"]):
        if name is not None and name != "space" and name not in dict(dingbats):
            fail("zapfDingbatsEncoding[%02X] = %s is not in the Zapf Dingbats list" % (code, name))


# --- Swift output ----------------------------------------------------------------------------

def swift_records(records, value_format):
    """The lines of a multi-line string literal: records "name;HEX[ HEX...]" separated by commas,
    as many a line as fit in RECORDS_WIDTH."""
    items = []
    for name, values in records:
        if not isinstance(values, list):
            values = [values]
        items.append("%s;%s" % (name, " ".join(value_format % v for v in values)))
    for item in items:
        if "\\" in item or '"' in item or "," in item:
            fail("unsafe record %r" % item)
    lines = [""]
    for item in items:
        if lines[-1] and len(lines[-1]) + 1 + len(item) > RECORDS_WIDTH:
            lines.append("")
        lines[-1] += ("," if lines[-1] else "") + item
    return "\n".join(lines)


def swift_array(enc):
    lines = []
    for row in range(0, 256, 8):
        items = ", ".join("nil" if n is None else '"%s"' % n for n in enc[row:row + 8])
        lines.append("        /* %02X */ %s," % (row, items))
    return "\n".join(lines)


def swift_files(agl_table, aglfn_table, dingbats, encodings):
    """{file name: text} of the three generated files."""
    licence = "\n".join(("// " + l).rstrip() for l in ADOBE_LICENSE.splitlines())
    lookups, tables, agl_list, aglfn_lists = [], [], [], []
    header = """\
// Generated by scripts/generate-glyph-tables.py; do not edit.
//
// Sources (the script's header says more):
// - The Adobe Glyph List 2.0 (glyphlist.txt), the Adobe Glyph List For New Fonts 1.7 (aglfn.txt)
//   and the ITC Zapf Dingbats Glyph List 2.0 (zapfdingbats.txt), from Adobe's agl-aglfn
//   repository (https://github.com/adobe-type-tools/agl-aglfn), read through fontTools.agl.
//   Their copyright notice and licence (BSD 3-Clause) are in the files that hold their text,
//   GlyphTables+AGL.swift and GlyphTables+AGLFN.swift.
// - StandardEncoding and MacRomanEncoding: fontTools.encodings (MIT), adjusted to PDF 32000-1
//   Annex D as the doc comments below say.
// - WinAnsiEncoding: the cp1252 code page with AGLFN names and Annex D.2's footnotes.
// - MacExpertEncoding, Symbol and ZapfDingbats: PDF 32000-1 Annex D.4-D.6, as transcribed in
//   scripts/data/pdf-encodings.txt.
"""
    notice = "//\n// The glyph lists' notice:\n//\n" + licence + "\n"

    w = lookups.append
    w(header)
    w("""
/// Glyph-name and encoding tables for PDF simple fonts (PDF 32000-1 Annex D, the Adobe Glyph List).
///
/// The glyph lists are kept here as text and parsed into dictionaries once, on first use (a
/// `static let` is initialised lazily and thread-safely). The dictionaries are only looked up.
/// The encodings are in `GlyphTables+Encodings.swift`, the glyph lists' text in
/// `GlyphTables+AGL.swift` and `GlyphTables+AGLFN.swift`.
enum GlyphTables {
    // MARK: Glyph names and Unicode

    /// The Unicode scalar values (usually one) for a glyph name, following the AGL specification
    /// (https://github.com/adobe-type-tools/agl-specification): the part of the name from its first
    /// '.' on is dropped, the rest is split at '_' into components, and each component maps to
    /// its entry in the Adobe Glyph List, else to the values of `uniXXXX[XXXX…]` (groups of four
    /// upper-case hex digits, each in 0000-D7FF or E000-FFFF), else to the value of `uXXXX` to
    /// `uXXXXXX` (four to six upper-case hex digits, in 0000-D7FF or E000-10FFFF), else to
    /// nothing. The components' values are joined. Lower-case hex digits do not count, as the
    /// specification says. The Zapf Dingbats names (`a1` …) are not looked up here: see
    /// `dingbatsUnicode(forGlyphName:)`.
    ///
    /// - Returns: the values, or nil when nothing maps (".notdef", "g123", "").
    static func unicode(forGlyphName name: String) -> [UInt32]? {
        let base = name.firstIndex(of: ".").map { name[..<$0] } ?? name[...]
        var result: [UInt32] = []
        for component in base.split(separator: "_") {
            result += componentUnicode(component)
        }
        return result.isEmpty ? nil : result
    }

    /// A glyph name for a Unicode scalar value: the Adobe Glyph List For New Fonts' name when it
    /// has one (U+0041 "A", U+2206 "Delta", U+20AC "Euro"), else "uniXXXX" for the Basic
    /// Multilingual Plane and "uXXXXX"/"uXXXXXX" above it (upper-case hex).
    static func glyphName(forUnicode u: UInt32) -> String {
        if let name = preferredNames[u] {
            return name
        }
        let hex = String(u, radix: 16, uppercase: true)
        if u <= 0xFFFF {
            return "uni" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        return "u" + hex
    }

    /// The Unicode value of a glyph name of the ZapfDingbats font (`a1` → U+2701), from Adobe's
    /// ITC Zapf Dingbats Glyph List; a suffix from the first '.' on is dropped when the whole name
    /// is not in the list. Names that are not dingbats ("space") give nil: look those up with
    /// `unicode(forGlyphName:)`.
    static func dingbatsUnicode(forGlyphName name: String) -> UInt32? {
        if let value = dingbatsTable[name] {
            return value
        }
        if let dot = name.firstIndex(of: "."), let value = dingbatsTable[String(name[..<dot])] {
            return value
        }
        return nil
    }

    // MARK: Encodings

    /// The encoding by its PDF name: "StandardEncoding", "WinAnsiEncoding", "MacRomanEncoding" or
    /// "MacExpertEncoding" (the only names a font's /Encoding or /BaseEncoding may give); nil for
    /// any other name. The Symbol and ZapfDingbats encodings are those fonts' built-in encodings,
    /// not named encodings: use `symbolEncoding` and `zapfDingbatsEncoding`.
    static func encoding(named: String) -> [String?]? {
        switch named {
        case "StandardEncoding": return standardEncoding
        case "WinAnsiEncoding": return winAnsiEncoding
        case "MacRomanEncoding": return macRomanEncoding
        case "MacExpertEncoding": return macExpertEncoding
        default: return nil
        }
    }
""")

    w = tables.append
    w(header)
    w("""
extension GlyphTables {
    /// StandardEncoding (Annex D.2), Adobe's standard Latin encoding, the built-in encoding of
    /// most Type 1 fonts. 256 entries, nil where the encoding has no glyph.
    static let standardEncoding: [String?] = [
""")
    w(swift_array(encodings["standardEncoding"]) + "\n    ]\n")
    w("""
    /// WinAnsiEncoding (Annex D.2), Windows code page 1252, with Annex D's footnotes as pdf.js has
    /// them: "space" also at 0xA0, "hyphen" also at 0xAD, and "bullet" at the codes above 0x20
    /// that the code page leaves undefined (0x7F, 0x81, 0x8D, 0x8F, 0x90, 0x9D) as well as at 0x95.
    /// 0x80 is "Euro". nil for 0x00-0x1F.
    static let winAnsiEncoding: [String?] = [
""")
    w(swift_array(encodings["winAnsiEncoding"]) + "\n    ]\n")
    w("""
    /// MacRomanEncoding (Annex D.2), the Mac OS Roman character set: 0xDB is "currency" as Annex D
    /// has it (Mac OS 8.5 and later put the Euro there; PDF does not) and 0xCA is "space" (Annex
    /// D's footnote). As in pdf.js, the 15 Mac OS glyphs that Annex D's table leaves out are kept:
    /// notequal 0xAD, infinity 0xB0, lessequal 0xB2, greaterequal 0xB3, partialdiff 0xB6,
    /// summation 0xB7, product 0xB8, pi 0xB9, integral 0xBA, Omega 0xBD, radical 0xC3,
    /// approxequal 0xC5, Delta 0xC6, lozenge 0xD7, apple 0xF0 (PDF 32000-1 9.6.6.4 gives them for
    /// TrueType fonts). nil for 0x00-0x1F and 0x7F.
    static let macRomanEncoding: [String?] = [
""")
    w(swift_array(encodings["macRomanEncoding"]) + "\n    ]\n")
    w("""
    /// MacExpertEncoding (Annex D.4), for expert-set Type 1 fonts (small capitals, old-style
    /// figures, fractions).
    static let macExpertEncoding: [String?] = [
""")
    w(swift_array(encodings["macExpertEncoding"]) + "\n    ]\n")
    w("""
    /// The built-in encoding of the standard Symbol font (Annex D.5), with "Euro" at 0xA0 (in the
    /// font since version 001.008; pdf.js has it too).
    static let symbolEncoding: [String?] = [
""")
    w(swift_array(encodings["symbolEncoding"]) + "\n    ]\n")
    w("""
    /// The built-in encoding of the standard ZapfDingbats font (Annex D.6): glyph names "a1" …
    /// "a206" (and "space"), with the ornaments a89 … a96, a205, a206 at 0x80-0x8D.
    static let zapfDingbatsEncoding: [String?] = [
""")
    w(swift_array(encodings["zapfDingbatsEncoding"]) + "\n    ]\n")
    w("}\n")

    w = lookups.append
    w("""
    // MARK: Lookups

    /// The Adobe Glyph List: glyph name → Unicode scalar values.
    private static let aglTable: [String: [UInt32]] = {
        var table: [String: [UInt32]] = [:]
        table.reserveCapacity(%(agl_count)d)
        forEachRecord(aglData) { name, values in table[name] = values }
        return table
    }()

    /// The Adobe Glyph List For New Fonts, reversed: Unicode scalar value → preferred glyph name.
    private static let preferredNames: [UInt32: String] = {
        var table: [UInt32: String] = [:]
        table.reserveCapacity(%(aglfn_count)d)
        forEachRecord(aglfnData) { name, values in table[values[0]] = name }
        return table
    }()

    /// The ITC Zapf Dingbats Glyph List: glyph name → Unicode scalar value.
    private static let dingbatsTable: [String: UInt32] = {
        var table: [String: UInt32] = [:]
        table.reserveCapacity(%(dingbats_count)d)
        forEachRecord(dingbatsData) { name, values in table[name] = values[0] }
        return table
    }()

    /// One component of a glyph name (no '.' or '_' in it) mapped as the AGL specification says.
    private static func componentUnicode(_ component: Substring) -> [UInt32] {
        if let values = aglTable[String(component)] {
            return values
        }
        let bytes = Array(component.utf8)
        // "uni" and one or more groups of four upper-case hex digits, each a BMP scalar value.
        if bytes.count >= 7, (bytes.count - 3) %% 4 == 0, bytes.starts(with: "uni".utf8) {
            var values: [UInt32] = []
            var start = 3
            while start < bytes.count {
                guard let value = hexValue(bytes[start..<start + 4]), !(0xD800...0xDFFF).contains(value) else {
                    values = []
                    break
                }
                values.append(value)
                start += 4
            }
            if !values.isEmpty {
                return values
            }
        }
        // "u" and four to six upper-case hex digits, a Unicode scalar value.
        if (5...7).contains(bytes.count), bytes[0] == UInt8(ascii: "u"), let value = hexValue(bytes[1...]),
            value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value)
        {
            return [value]
        }
        return []
    }

    /// The value of one to eight upper-case hexadecimal digits; nil for anything else.
    private static func hexValue(_ digits: ArraySlice<UInt8>) -> UInt32? {
        guard !digits.isEmpty, digits.count <= 8 else { return nil }
        var value: UInt32 = 0
        for digit in digits {
            let nibble: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit &- UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = digit &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            value = value << 4 | UInt32(nibble)
        }
        return value
    }

    /// Calls `body` with each "name;HEX[ HEX…]" record of `text` (records end at a comma or a
    /// line break).
    private static func forEachRecord(_ text: String, _ body: (String, [UInt32]) -> Void) {
        let bytes = Array(text.utf8)
        for record in bytes.split(whereSeparator: { $0 == UInt8(ascii: "\\n") || $0 == UInt8(ascii: ",") }) {
            guard let semicolon = record.firstIndex(of: UInt8(ascii: ";")) else { continue }
            let name = String(decoding: record[..<semicolon], as: UTF8.self)
            let values = record[(semicolon + 1)...].split(separator: UInt8(ascii: " ")).compactMap { hexValue($0) }
            if !values.isEmpty {
                body(name, values)
            }
        }
    }
}
""" % {"agl_count": len(agl_table), "aglfn_count": len(aglfn_table), "dingbats_count": len(dingbats)})

    w = agl_list.append
    w(header + notice)
    w("""
extension GlyphTables {
""")
    w("    /// The Adobe Glyph List 2.0 (glyphlist.txt), %d names sorted by name: \"name;HEX[ HEX…]\",\n"
      "    /// separated by commas and line breaks.\n" % len(agl_table))
    w('    static let aglData = """\n' + swift_records(agl_table, "%04X") + '\n"""\n')
    w("}\n")

    w = aglfn_lists.append
    w(header + notice)
    w("""
extension GlyphTables {
""")
    w("    /// The Adobe Glyph List For New Fonts 1.7 (aglfn.txt), %d names sorted by value: \"name;HEX\",\n"
      "    /// separated by commas and line breaks.\n" % len(aglfn_table))
    w('    static let aglfnData = """\n' + swift_records(aglfn_table, "%04X") + '\n"""\n\n')
    w("    /// The ITC Zapf Dingbats Glyph List 2.0 (zapfdingbats.txt), %d names sorted by number:\n"
      "    /// \"name;HEX\", separated by commas and line breaks.\n" % len(dingbats))
    w('    static let dingbatsData = """\n' + swift_records(dingbats, "%04X") + '\n"""\n')
    w("}\n")
    return {LOOKUPS: "".join(lookups), ENCODINGS: "".join(tables), AGL_FILE: "".join(agl_list),
            AGLFN_FILE: "".join(aglfn_lists)}


def main():
    args = sys.argv[1:]
    if args not in ([], ["--check"]):
        sys.exit(__doc__.split("\n\n")[1])
    agl_table = glyph_list()
    aglfn_table = preferred_names()
    dingbats = dingbats_list()
    from_data = data_file_encodings()
    encodings = {
        "standardEncoding": standard_encoding(),
        "winAnsiEncoding": win_ansi_encoding(),
        "macRomanEncoding": mac_roman_encoding(),
        "macExpertEncoding": from_data["MacExpertEncoding"],
        "symbolEncoding": from_data["SymbolEncoding"],
        "zapfDingbatsEncoding": from_data["ZapfDingbatsEncoding"],
    }
    check(encodings, agl_table, dingbats)
    files = swift_files(agl_table, aglfn_table, dingbats, encodings)
    if args == ["--check"]:
        for name, text in sorted(files.items()):
            path = os.path.join(OUTPUT_DIR, name)
            try:
                with open(path, encoding="utf-8", newline="") as f:
                    current = f.read()
            except FileNotFoundError:
                current = None
            if current != text:
                sys.exit("%s is not what scripts/generate-glyph-tables.py makes: run it" % os.path.relpath(path, ROOT))
        return
    os.makedirs(OUTPUT_DIR, exist_ok=True)
    for name, text in sorted(files.items()):
        with open(os.path.join(OUTPUT_DIR, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)


if __name__ == "__main__":
    main()
