import PDFRender
import Testing

/// Annotations without appearance streams: form fields' values and free text are drawn from
/// their dictionaries, as viewers draw them; what cannot be shown stays blank.
@Suite("Annotations without appearance streams")
struct AnnotationWithoutAppearanceTests {
    /// Dark pixels of page 1 at 72 dpi (1 pixel a point) inside `x0 ..< x1`, measured from the top.
    func ink(_ pdf: [UInt8], x0: Int, y0: Int, x1: Int, y1: Int) throws -> Int {
        let doc = try PDFPageDocument(data: pdf)
        let img = try doc.render(page: 1, width: 300, height: 200)
        var n = 0
        for y in y0 ..< y1 {
            for x in x0 ..< x1 where pixel(img, x, y).0 < 128 { n += 1 }
        }
        return n
    }

    /// A page with one widget at 20 100 220 130 (points), `/FT`, `/V` and `/Ff` as given.
    func field(_ entries: String, flags: Int = 0) -> [UInt8] {
        minimalPDF(content: "", page: "/Annots [5 0 R]", catalog: "/AcroForm << /Fields [5 0 R] /DA (/Helv 0 Tf 0 g) >>",
                   objects: ["<< /Type /Annot /Subtype /Widget /Rect [20 100 220 130] /T (f) /Ff \(flags) \(entries) >>"])
    }

    @Test("a text field's value is drawn inside its rectangle, nothing outside it")
    func textField() throws {
        let pdf = field("/FT /Tx /V (Quarterly revenue)")
        // The rectangle is y 100-130 from the bottom of a 200-point page: rows 70-100 from the top.
        #expect(try ink(pdf, x0: 20, y0: 70, x1: 220, y1: 100) > 100)
        #expect(try ink(pdf, x0: 0, y0: 0, x1: 300, y1: 69) == 0)
        #expect(try ink(pdf, x0: 0, y0: 101, x1: 300, y1: 200) == 0)
    }

    @Test("a value inherited from the parent field, a choice, a checked box; a password and an unchecked box stay blank")
    func kinds() throws {
        let inherited = minimalPDF(
            content: "", page: "/Annots [6 0 R]", catalog: "/AcroForm << /Fields [5 0 R] >>",
            objects: ["<< /FT /Tx /V (Inherited) /DA (/Helv 12 Tf 0 g) /Kids [6 0 R] >>",
                      "<< /Type /Annot /Subtype /Widget /Parent 5 0 R /Rect [20 100 220 130] >>"])
        #expect(try ink(inherited, x0: 20, y0: 70, x1: 220, y1: 100) > 50)
        #expect(try ink(field("/FT /Ch /V [(Option A)]"), x0: 20, y0: 70, x1: 220, y1: 100) > 50)
        #expect(try ink(field("/FT /Btn /V /Yes /AS /Yes"), x0: 20, y0: 70, x1: 220, y1: 100) > 20)
        #expect(try ink(field("/FT /Btn /V /Off /AS /Off"), x0: 0, y0: 0, x1: 300, y1: 200) == 0)
        #expect(try ink(field("/FT /Tx /V (secret)", flags: 8192), x0: 0, y0: 0, x1: 300, y1: 200) == 0)
        // Cyrillic in UTF-16: no Latin-1 form, so nothing rather than question marks.
        #expect(try ink(field("/FT /Tx /V <FEFF041F04400438>"), x0: 0, y0: 0, x1: 300, y1: 200) == 0)
    }

    @Test("a comb field spreads its characters over its cells")
    func comb() throws {
        let pdf = field("/FT /Tx /V (1234) /MaxLen 4", flags: 1 << 24)
        // Each of the four 50-point cells holds ink.
        for cell in 0 ..< 4 {
            #expect(try ink(pdf, x0: 20 + cell * 50, y0: 70, x1: 20 + (cell + 1) * 50, y1: 100) > 10)
        }
    }

    @Test("free text shows its contents line by line")
    func freeText() throws {
        let pdf = minimalPDF(content: "", page: "/Annots [5 0 R]", objects: [
            "<< /Type /Annot /Subtype /FreeText /Rect [20 40 280 180] /DA (/Helv 12 Tf 0 0 1 rg) /Contents (First line\\rSecond line) >>"])
        // Two lines near the top of the box (rows 20-60 from the top), none further down.
        #expect(try ink(pdf, x0: 20, y0: 20, x1: 280, y1: 40) > 30)
        #expect(try ink(pdf, x0: 20, y0: 40, x1: 280, y1: 60) > 30)
        #expect(try ink(pdf, x0: 20, y0: 70, x1: 280, y1: 160) == 0)
    }
}

/// A soft mask's transfer function (`/TR`) maps the mask's values before they apply.
@Suite("Soft mask transfer functions")
struct SoftMaskTransferTests {
    /// A red page under a luminosity mask whose group paints white (mask 1), with `tr` as `/TR`.
    func page(tr: String) -> [UInt8] {
        minimalPDF(content: "/GS1 gs 1 0 0 rg 0 0 300 200 re f",
                   page: "/Resources << /ExtGState << /GS1 << /SMask << /S /Luminosity /G 5 0 R \(tr) >> >> >> >>",
                   objects: ["<< /Type /XObject /Subtype /Form /BBox [0 0 300 200] /Group << /S /Transparency /CS /DeviceRGB >> /Length 25 >>\nstream\n1 1 1 rg 0 0 300 200 re f\nendstream"])
    }

    @Test("an inverting transfer function hides what the mask showed")
    func inverting() throws {
        let shown = try PDFPageDocument(data: page(tr: "")).render(page: 1, width: 300, height: 200)
        #expect(pixel(shown, 150, 100) == (255, 0, 0))
        let hidden = try PDFPageDocument(data: page(tr: "/TR << /FunctionType 2 /Domain [0 1] /C0 [1] /C1 [0] /N 1 >>"))
            .render(page: 1, width: 300, height: 200)
        #expect(pixel(hidden, 150, 100) == (255, 255, 255))
        #expect(!hidden.warnings.contains { $0.message.contains("transfer") })
    }
}

/// Tensor-product patch meshes (type 7) use their interior control points.
@Suite("Tensor-product patch meshes")
struct TensorPatchTests {
    /// A page filled by one patch over the whole page (a square's edges as straight cubic
    /// curves), corner colours red, green, blue, white; type 7 adds `interior` (p11 p12 p22 p21).
    func page(type: Int, interior: [(Int, Int)]) -> [UInt8] {
        let boundary = [(0, 0), (0, 85), (0, 170), (0, 255), (85, 255), (170, 255), (255, 255),
                        (255, 170), (255, 85), (255, 0), (170, 0), (85, 0)]
        var bytes: [Int] = [0]
        for (x, y) in boundary + (type == 7 ? interior : []) { bytes += [x, y] }
        bytes += [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]
        let hex = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() + ">"
        return minimalPDF(content: "/Sh1 sh", page: "/Resources << /Shading << /Sh1 5 0 R >> >>", objects: [
            "<< /ShadingType \(type) /ColorSpace /DeviceRGB /BitsPerCoordinate 8 /BitsPerComponent 8 /BitsPerFlag 8 /Decode [0 300 0 200 0 1 0 1 0 1] /Filter /ASCIIHexDecode /Length \(hex.count) >>\nstream\n\(hex)\nendstream"])
    }

    func grey(_ pdf: [UInt8]) throws -> PDFPageImage { try PDFPageDocument(data: pdf).render(page: 1, width: 300, height: 200) }

    @Test("interior points where a Coons patch implies them draw the Coons patch; moved ones change it, without a warning")
    func interior() throws {
        let coons = try grey(page(type: 6, interior: []))
        let same = try grey(page(type: 7, interior: [(85, 85), (85, 170), (170, 170), (170, 85)]))
        let moved = try grey(page(type: 7, interior: [(240, 240), (240, 240), (240, 240), (240, 240)]))
        var sameDiff = 0, movedDiff = 0
        for y in stride(from: 10, to: 190, by: 10) {
            for x in stride(from: 10, to: 290, by: 10) {
                let a = pixel(coons, x, y), b = pixel(same, x, y), c = pixel(moved, x, y)
                sameDiff = max(sameDiff, abs(a.0 - b.0), abs(a.1 - b.1), abs(a.2 - b.2))
                movedDiff = max(movedDiff, abs(a.0 - c.0), abs(a.1 - c.1), abs(a.2 - c.2))
            }
        }
        #expect(sameDiff <= 3)
        #expect(movedDiff > 40)
        #expect(!moved.warnings.contains { $0.kind == .shading })
    }
}

/// Images thinner than a device pixel (TeX's rules are 1×1 image masks) are drawn one pixel wide.
@Suite("Sub-pixel images")
struct SubPixelImageTests {
    @Test("a 0.3-point-wide rule drawn as a 1×1 image mask stays a dark line")
    func rule() throws {
        let img = try PDFPageDocument(data: minimalPDF(content: "0 g q 0.3 0 0 150 100.2 25 cm BI /IM true /W 1 /H 1 /BPC 1 ID \u{0}\nEI Q"))
            .render(page: 1, width: 300, height: 200)
        let darkest = (0 ..< 300).map { pixel(img, $0, 100).0 }.min() ?? 255
        #expect(darkest < 64)
        // One pixel wide: the pixels two away from the rule stay white.
        #expect(pixel(img, 98, 100).0 == 255 && pixel(img, 103, 100).0 == 255)
    }
}

/// A luminosity soft mask's default backdrop is zero in each component of its group's colour
/// space: black for RGB, white (nothing masked) for CMYK.
@Suite("Soft mask backdrops")
struct SoftMaskBackdropTests {
    func page(groupSpace: String) -> [UInt8] {
        minimalPDF(content: "/GS1 gs 1 0 0 rg 0 0 300 200 re f",
                   page: "/Resources << /ExtGState << /GS1 << /SMask << /S /Luminosity /G 5 0 R >> >> >> >>",
                   objects: ["<< /Type /XObject /Subtype /Form /BBox [0 0 300 200] /Group << /S /Transparency /CS /\(groupSpace) >> /Length 3 >>\nstream\nq Q\nendstream"])
    }

    @Test("an empty mask group over a CMYK backdrop shows everything; over an RGB one, nothing")
    func defaults() throws {
        let cmyk = try PDFPageDocument(data: page(groupSpace: "DeviceCMYK")).render(page: 1, width: 300, height: 200)
        #expect(pixel(cmyk, 150, 100) == (255, 0, 0))
        let rgb = try PDFPageDocument(data: page(groupSpace: "DeviceRGB")).render(page: 1, width: 300, height: 200)
        #expect(pixel(rgb, 150, 100) == (255, 255, 255))
    }
}

/// Content-stream numbers written without a digit.
@Suite("Digitless numbers in content")
struct DigitlessNumberTests {
    @Test("`.` and `-` alone read as 0, so the operator gets its operands (pdf.js issue9252)")
    func dot() throws {
        let img = try PDFPageDocument(data: minimalPDF(content: ". .5 1 rg 0 0 300 200 re f")).render(page: 1, width: 300, height: 200)
        #expect(pixel(img, 150, 100) == (0, 128, 255))
        #expect(!img.warnings.contains { $0.message.contains("unknown operator") })
    }
}

/// CalRGB and CalGray through XYZ, adapted to D65 and shown in sRGB (pdf.js's calrgb.pdf).
@Suite("Calibrated colour spaces")
struct CalibratedColourTests {
    func fill(_ space: String, _ values: String) throws -> (Int, Int, Int) {
        let pdf = minimalPDF(content: "/CS1 cs \(values) sc 0 0 300 200 re f", page: "/Resources << /ColorSpace << /CS1 \(space) >> >>")
        return pixel(try PDFPageDocument(data: pdf).render(page: 1, width: 300, height: 200), 150, 100)
    }

    @Test("linear CalRGB under a flat white point is sRGB-encoded; CalGray with gamma 2.2 is about sRGB's mid grey")
    func values() throws {
        let rgb = try fill("[/CalRGB << /WhitePoint [1 1 1] /Gamma [1 1 1] /Matrix [1 0 0 0 1 0 0 0 1] >>]", "0.5 0.5 0.5")
        #expect(abs(rgb.0 - 188) <= 1 && abs(rgb.1 - 188) <= 1 && abs(rgb.2 - 188) <= 1)
        let gray = try fill("[/CalGray << /WhitePoint [0.9505 1 1.089] /Gamma 2.2 >>]", "0.5")
        #expect(abs(gray.0 - 128) <= 2 && gray.0 == gray.1 && gray.1 == gray.2)
        // Black stays black.
        #expect(try fill("[/CalRGB << /WhitePoint [0.9505 1 1.089] >>]", "0 0 0") == (0, 0, 0))
    }
}
