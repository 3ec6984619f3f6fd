import Foundation
@_spi(Testing) import PDFMetadata
import PDFCore
import TestSupport
import Testing

/// The fast path for plain files must give exactly what the full reader gives (values,
/// warnings, errors, bytes read), and hand everything else to it.
@Suite("Fast path against the full reader")
struct FastPathTests {
    /// Both readers' outcome for the same input, as comparable values.
    static func outcomes(_ bytes: [UInt8], _ options: PDFReadOptions = PDFReadOptions())
        -> (fast: Result<PDFDocumentMetadata, PDFError>, full: Result<PDFDocumentMetadata, PDFError>) {
        let fast: Result<PDFDocumentMetadata, PDFError>
        do throws(PDFError) { fast = .success(try PDFDocumentInfo.read(data: bytes, options: options)) } catch { fast = .failure(error) }
        let full: Result<PDFDocumentMetadata, PDFError>
        do throws(PDFError) {
            full = .success(try PDFDocumentInfo.readWithFullReader(data: bytes, options: options))
        } catch {
            full = .failure(error)
        }
        return (fast, full)
    }

    @Test("every fixture reads the same from its file and from memory", arguments: fixtureNames)
    func fixture(_ name: String) {
        let fromFile: Result<PDFDocumentMetadata, PDFError>
        do throws(PDFError) { fromFile = .success(try PDFDocumentInfo.read(contentsOf: fixturePath(name))) } catch { fromFile = .failure(error) }
        let fullFromFile: Result<PDFDocumentMetadata, PDFError>
        do throws(PDFError) {
            fullFromFile = .success(try PDFDocumentInfo.readWithFullReader(contentsOf: fixturePath(name)))
        } catch {
            fullFromFile = .failure(error)
        }
        #expect(fromFile == fullFromFile)
        let (fast, full) = Self.outcomes(fixtureBytes(name))
        #expect(fast == full)
    }

    /// Truncations and byte mutations of every fixture: where the fast path reads the input it
    /// must agree with the full reader, and where it gives up the full reader's answer stands.
    @Test("mutated fixtures read the same", arguments: fixtureNames)
    func mutations(_ name: String) {
        let original = fixtureBytes(name)
        guard !original.isEmpty else { return }
        var rng = SeededRandom(seed: UInt64(original.count) &* 31 &+ 7)
        var inputs: [[UInt8]] = []
        for k in stride(from: 0, to: original.count, by: max(1, original.count / 24)) {
            inputs.append(Array(original[0 ..< k]))
        }
        let tokens = ["R", "/Count 2", "/Kids [", "]", ">>", "<<", "(", ")", "\\", "%", "#", "null", "endobj", "/Prev 9",
                      "/Type /Pages", "/Type /Page", "0 0 R", " ", "\r", "/Info 1 0 R", "/Length 9"].map { Array($0.utf8) }
        for _ in 0 ..< 24 {
            var m = original
            for _ in 0 ..< Int.random(in: 1 ... 4, using: &rng) where !m.isEmpty {
                let i = Int.random(in: 0 ..< m.count, using: &rng)
                switch Int.random(in: 0 ..< 3, using: &rng) {
                case 0: m[i] = UInt8.random(in: 0 ... 255, using: &rng)
                case 1: m.insert(contentsOf: tokens.randomElement(using: &rng) ?? [], at: i)
                default: m.removeSubrange(i ..< min(m.count, i + Int.random(in: 1 ... 16, using: &rng)))
                }
            }
            inputs.append(m)
        }
        var options = PDFReadOptions()
        options.maxDecompressedSize = 1 << 20 // keeps the bomb's mutations fast
        for input in inputs {
            let (fast, full) = Self.outcomes(input, options)
            #expect(fast == full)
        }
    }

    /// A one-page report as the generator of the bench corpus writes it, in the given shape.
    static func report(objectStream: Bool, predictor: Bool = false, xmp: Bool = false, kids: Int = 1,
                       info: String = "<< /Title (Quarterly \\(draft\\)) /Author <FEFF00C9> /Keywords (a, b; A) /CreationDate (D:20240301) >>")
        -> [UInt8] {
        var objects: [Int: String] = [:]
        let kidRefs = (0 ..< kids).map { "\(10 + $0) 0 R" }.joined(separator: " ")
        objects[1] = "<< /Type /Catalog /Pages 2 0 R\(xmp ? " /Metadata 4 0 R" : "") /Version /1.7 >>"
        objects[2] = "<< /Type /Pages /Kids [\(kidRefs)] /Count \(kids) >>"
        objects[3] = info
        for k in 0 ..< kids {
            objects[10 + k] = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595.3 842] /Resources << /Font << /F1 5 0 R >> >> >>"
        }
        var out = Array("%PDF-1.5\n%\u{E2}\u{E3}\n".utf8)
        var offsets: [Int: Int] = [:]
        if xmp {
            let packet = Array("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">From XMP</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>".utf8)
            let data = zlibCompress(packet) ?? []
            offsets[4] = out.count
            out += Array("4 0 obj\n<< /Type /Metadata /Subtype /XML /Filter /FlateDecode /Length 5 0 R >>\nstream\n".utf8) + data
                + Array("\nendstream\nendobj\n".utf8)
            offsets[5] = out.count
            out += Array("5 0 obj\n\(data.count)\nendobj\n".utf8)
        }
        let nums = objects.keys.sorted()
        if !objectStream {
            for n in nums {
                offsets[n] = out.count
                out += Array("\(n) 0 obj\n\(objects[n]!)\nendobj\n".utf8)
            }
            let size = (offsets.keys.max() ?? 0) + 1
            let xrefAt = out.count
            var table = "xref\n0 \(size)\n"
            for n in 0 ..< size {
                if let o = offsets[n] {
                    table += String(repeating: "0", count: 10 - String(o).count) + "\(o) 00000 n\r\n"
                } else {
                    table += "0000000000 65535 f\r\n"
                }
            }
            out += Array(table.utf8)
            out += Array("trailer\n<< /Size \(size) /Root 1 0 R /Info 3 0 R /ID [<01> <02>] >>\nstartxref\n\(xrefAt)\n%%EOF\n".utf8)
            return out
        }
        var body: [UInt8] = []
        var pairs: [String] = []
        for n in nums {
            pairs.append("\(n) \(body.count)")
            body += Array((objects[n]! + "\n").utf8)
        }
        let header = Array((pairs.joined(separator: " ") + "\n").utf8)
        let streamNum = 8
        let packed = zlibCompress(header + body) ?? []
        offsets[streamNum] = out.count
        out += Array("\(streamNum) 0 obj\n<< /Type /ObjStm /N \(nums.count) /First \(header.count) /Filter /FlateDecode /Length \(packed.count) >>\nstream\n".utf8)
            + packed + Array("\nendstream\nendobj\n".utf8)
        let xrefNum = 9
        let xrefAt = out.count
        offsets[xrefNum] = xrefAt
        let size = max(xrefNum, nums.max() ?? 0) + 1
        var rows: [UInt8] = []
        for n in 0 ..< size {
            if let i = nums.firstIndex(of: n) {
                rows += [2, 0, 0, 0, UInt8(streamNum), UInt8(i)]
            } else if let o = offsets[n] {
                rows += [1, UInt8(o >> 24 & 0xFF), UInt8(o >> 16 & 0xFF), UInt8(o >> 8 & 0xFF), UInt8(o & 0xFF), 0]
            } else {
                rows += [0, 0, 0, 0, 0, 0xFF]
            }
        }
        var parms = ""
        if predictor {
            // PNG "Up" rows: each row tagged 2 and differenced against the row above.
            var encoded: [UInt8] = []
            var previous = [UInt8](repeating: 0, count: 6)
            for r in stride(from: 0, to: rows.count, by: 6) {
                let row = Array(rows[r ..< r + 6])
                encoded.append(2)
                for i in 0 ..< 6 { encoded.append(row[i] &- previous[i]) }
                previous = row
            }
            rows = encoded
            parms = " /DecodeParms << /Columns 6 /Predictor 12 >>"
        }
        let xdata = zlibCompress(rows) ?? []
        out += Array("\(xrefNum) 0 obj\n<< /Type /XRef /Size \(size) /W [1 4 1] /Root 1 0 R /Info 3 0 R /Filter /FlateDecode\(parms) /Length \(xdata.count) >>\nstream\n".utf8)
            + xdata + Array("\nendstream\nendobj\nstartxref\n\(xrefAt)\n%%EOF\n".utf8)
        return out
    }

    /// The shape of a generated report.
    struct Shape: Sendable, CustomStringConvertible {
        var objectStream: Bool
        var predictor: Bool
        var xmp: Bool
        var kids: Int
        var description: String {
            "\(objectStream ? "object stream" : "classic table")\(predictor ? " + predictor" : "")\(xmp ? " + XMP" : ""), \(kids) pages"
        }
    }

    @Test("plain shapes are read by the fast path, as the full reader reads them",
          arguments: [Shape(objectStream: false, predictor: false, xmp: false, kids: 1),
                      Shape(objectStream: false, predictor: false, xmp: true, kids: 3),
                      Shape(objectStream: true, predictor: false, xmp: false, kids: 1),
                      Shape(objectStream: true, predictor: true, xmp: false, kids: 4),
                      Shape(objectStream: true, predictor: true, xmp: true, kids: 2)])
    func plainShapes(_ shape: Shape) throws {
        let bytes = Self.report(objectStream: shape.objectStream, predictor: shape.predictor, xmp: shape.xmp, kids: shape.kids)
        let lean = try #require(PDFDocumentInfo.readWithFastPath(data: bytes))
        let full = try PDFDocumentInfo.readWithFullReader(data: bytes)
        #expect(lean == full)
        #expect(lean.pageCount == shape.kids)
        #expect(lean.title == "Quarterly (draft)")
        #expect(lean.author == "É")
        #expect(lean.keywords == ["a", "b"])
        #expect(lean.version == "1.7")
        #expect(lean.warnings.isEmpty)
        #expect(lean.xmp?.title == (shape.xmp ? "From XMP" : nil))
    }

    /// Shapes the fast path hands on: the result is the full reader's either way.
    @Test("unusual shapes go to the full reader")
    func handedOn() throws {
        let plain = Self.report(objectStream: false)
        let text = String(decoding: plain, as: UTF8.self)
        let variants: [String] = [
            text.replacingOccurrences(of: "/Count 1", with: "/Count 2"), // disagreeing count: a walk and a warning
            text.replacingOccurrences(of: "/Title (Quarterly \\(draft\\))", with: "/Title 7 0 R"), // indirect Info value
            text.replacingOccurrences(of: "/Root 1 0 R", with: "/Root 1 0 R /Encrypt 99 0 R"),
            text.replacingOccurrences(of: "(D:20240301)", with: "(yesterday!)"), // a date warning, from the fast path
            text.replacingOccurrences(of: "%PDF-1.5", with: "junk%PDF-1.5"),
        ]
        for v in variants {
            let (fast, full) = Self.outcomes(Array(v.utf8))
            #expect(fast == full)
        }
        #expect(PDFDocumentInfo.readWithFastPath(data: Array(variants[0].utf8)) == nil)
        let dated = try #require(PDFDocumentInfo.readWithFastPath(data: Array(variants[3].utf8)))
        #expect(dated.warnings.map(\.kind) == [.date])
    }
}
