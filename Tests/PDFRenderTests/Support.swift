import DeterminismPins
import Foundation
import PDFRender
import TestSupport

/// The renderer's fixtures (written by scripts/make-page-fixtures.py).
let pageFixtures = PageRenderPins.fixtures

/// Every fixture name, sorted.
let pageFixtureNames = PageRenderPins.fixtureNames

/// Cairo-made PDFs with embedded TrueType fonts from elsewhere in the repository.
let embeddedFontFiles = PageRenderPins.embeddedFontFiles

/// Renders page 1 of a file at 96 dpi.
func renderFirstPage(_ path: String, dpi: Double = 96, options: PDFRenderOptions = PDFRenderOptions()) throws -> PDFPageImage {
    try PageRenderPins.renderFirstPage(path, dpi: dpi, options: options)
}

/// FNV-1a 64 of the pixels, as 16 hex digits.
func pixelHash(_ img: PDFPageImage) -> String { PageRenderPins.pixelHash(img) }

/// The RGB of a pixel (un-premultiplied on white).
func pixel(_ img: PDFPageImage, _ x: Int, _ y: Int) -> (Int, Int, Int) {
    let p = img.pixels.withUnsafeBytes { $0.load(fromByteOffset: y * img.stride + x * 4, as: UInt32.self) }
    return (Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF))
}

/// Grey levels (ITU-R 601 luma) of premultiplied ARGB32 pixels composited on white.
func grey(_ img: PDFPageImage) -> [Double] {
    var out = [Double](repeating: 255, count: img.width * img.height)
    img.pixels.withUnsafeBytes { raw in
        for y in 0 ..< img.height {
            for x in 0 ..< img.width {
                let p = raw.load(fromByteOffset: y * img.stride + x * 4, as: UInt32.self)
                let a = Double(p >> 24), inv = 255 - a
                let r = Double((p >> 16) & 0xFF) + inv, g = Double((p >> 8) & 0xFF) + inv, b = Double(p & 0xFF) + inv
                out[y * img.width + x] = 0.299 * r + 0.587 * g + 0.114 * b
            }
        }
    }
    return out
}

/// Reads a binary PGM (P5) or PPM (P6) as grey levels (ITU-R 601 luma for colour).
func readPNM(_ path: String) -> (width: Int, height: Int, grey: [Double])? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    let bytes = [UInt8](data)
    var fields: [String] = []
    var i = 0
    while fields.count < 4 && i < bytes.count {
        while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09) { i += 1 }
        var s = ""
        while i < bytes.count && !(bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09) {
            s.append(Character(Unicode.Scalar(bytes[i]))); i += 1
        }
        fields.append(s)
    }
    i += 1
    guard fields.count == 4, fields[0] == "P5" || fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]) else { return nil }
    let channels = fields[0] == "P6" ? 3 : 1
    guard bytes.count - i >= w * h * channels else { return nil }
    if channels == 1 { return (w, h, bytes[i ..< i + w * h].map(Double.init)) }
    var grey = [Double](repeating: 0, count: w * h)
    for k in 0 ..< w * h {
        let p = i + 3 * k
        grey[k] = 0.299 * Double(bytes[p]) + 0.587 * Double(bytes[p + 1]) + 0.114 * Double(bytes[p + 2])
    }
    return (w, h, grey)
}

/// SSIM of two grey images after 4×4 mean pooling (8×8 uniform windows on the pooled images):
/// agreement at thumbnail scale, the measure of the renderer's fidelity targets.
func pooledSSIM(_ a: [Double], _ b: [Double], width: Int, height: Int) -> Double {
    func pool(_ v: [Double]) -> [Double] {
        let pw = width / 4, ph = height / 4
        var out = [Double](repeating: 0, count: pw * ph)
        for y in 0 ..< ph * 4 { for x in 0 ..< pw * 4 { out[(y / 4) * pw + x / 4] += v[y * width + x] / 16 } }
        return out
    }
    let pa = pool(a), pb = pool(b)
    let pw = width / 4, ph = height / 4
    let c1 = 6.5025, c2 = 58.5225
    var total = 0.0, count = 0
    var y = 0
    while y + 8 <= ph {
        var x = 0
        while x + 8 <= pw {
            var ma = 0.0, mb = 0.0
            for j in 0 ..< 8 { for i in 0 ..< 8 { ma += pa[(y + j) * pw + x + i]; mb += pb[(y + j) * pw + x + i] } }
            ma /= 64; mb /= 64
            var va = 0.0, vb = 0.0, cov = 0.0
            for j in 0 ..< 8 {
                for i in 0 ..< 8 {
                    let da = pa[(y + j) * pw + x + i] - ma, db = pb[(y + j) * pw + x + i] - mb
                    va += da * da; vb += db * db; cov += da * db
                }
            }
            va /= 63; vb /= 63; cov /= 63
            total += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2))
            count += 1
            x += 4
        }
        y += 4
    }
    return count == 0 ? 1 : total / Double(count)
}

/// Ink-F1: dark pixels (grey < 128) of each image that have a dark pixel of the other within 1 px.
func inkF1(_ a: [Double], _ b: [Double], width: Int, height: Int) -> Double {
    func near(_ v: [Double], _ x: Int, _ y: Int) -> Bool {
        for j in max(0, y - 1) ... min(height - 1, y + 1) { for i in max(0, x - 1) ... min(width - 1, x + 1) where v[j * width + i] < 128 { return true } }
        return false
    }
    var da = 0, db = 0, hitA = 0, hitB = 0
    for y in 0 ..< height {
        for x in 0 ..< width {
            if a[y * width + x] < 128 { da += 1; if near(b, x, y) { hitA += 1 } }
            if b[y * width + x] < 128 { db += 1; if near(a, x, y) { hitB += 1 } }
        }
    }
    if da == 0 && db == 0 { return 1 }
    let p = da == 0 ? 0 : Double(hitA) / Double(da), r = db == 0 ? 0 : Double(hitB) / Double(db)
    return p + r == 0 ? 0 : 2 * p * r / (p + r)
}
