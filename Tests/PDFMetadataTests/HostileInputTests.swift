import Foundation
import PDFMetadata
import PDFCore
import TestSupport
import Testing

@Suite("Hostile input")
struct HostileInputTests {
    /// Every truncation point and a set of byte mutations of every fixture ends in a value or a
    /// typed error (a trap would crash the test process).
    @Test("mutated fixtures end in a result or a PDFError", arguments: fixtureNames)
    func mutations(_ name: String) {
        let original = fixtureBytes(name)
        guard !original.isEmpty else { return }
        var rng = SeededRandom(seed: UInt64(original.count))
        var inputs: [[UInt8]] = []
        for k in stride(from: 0, to: original.count, by: max(1, original.count / 16)) {
            inputs.append(Array(original[0 ..< k]))
        }
        for _ in 0 ..< 16 {
            var m = original
            for _ in 0 ..< Int.random(in: 1 ... 8, using: &rng) {
                let i = Int.random(in: 0 ..< m.count, using: &rng)
                m[i] = [0x00, 0xFF, UInt8(ascii: "("), UInt8(ascii: "<"), UInt8(ascii: "9"), UInt8(ascii: "R"),
                        UInt8.random(in: 0 ... 255, using: &rng)].randomElement(using: &rng) ?? 0
            }
            inputs.append(m)
        }
        var options = PDFReadOptions()
        options.maxDecompressedSize = 1 << 20 // keeps the bomb's mutations fast
        for input in inputs {
            do {
                _ = try PDFDocumentInfo.read(data: input, options: options)
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
    }

    @Test("self-referencing objects, huge numbers and deep arrays")
    func handcrafted() {
        let cases: [String] = [
            "%PDF-1.4\n1 0 obj 1 0 R endobj\ntrailer << /Root 1 0 R >>\nstartxref\n9\n%%EOF",
            "%PDF-1.4\n1 0 obj << /Pages 99999999999999999999999 0 R >> endobj\ntrailer << /Root 1 0 R /Size 9223372036854775807 >>\n",
            "%PDF-1.4\nxref\n0 9223372036854775807\ntrailer << >>\nstartxref\n9\n%%EOF",
            "%PDF-1.4\n" + String(repeating: "[", count: 100_000),
            "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj 2 0 obj << /Count -5 >> endobj trailer << /Root 1 0 R >>",
            "%PDF-1.4\n1 0 obj << /Length -1 >> stream\nabc\nendstream endobj trailer << /Root 1 0 R >>",
            "%PDF-1.4\n1 0 obj << /Type /XRef /W [9 9 9] /Size 5 /Length 3 >> stream\nabc\nendstream endobj\nstartxref\n9\n%%EOF",
            "%PDF-1.4\n1 0 obj << /Type /ObjStm /N 999999 /First -4 /Length 3 >> stream\nabc\nendstream endobj trailer << /Root 2 0 R >>",
        ]
        for c in cases {
            do {
                _ = try PDFDocumentInfo.read(data: Array(c.utf8))
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
    }
}
