import PDFCore

/// One patch of a mesh shading: a patch's twelve boundary points (in order around it) with its
/// four corner colours, or a triangle's three points and colours. A tensor-product patch also
/// has its four interior control points (p11, p12, p22, p21: each near corner 0, 1, 2, 3).
struct MeshPatch {
    var points: [(Double, Double)]
    var colors: [RGB]
    var interior: [(Double, Double)]? = nil
}

/// Reads the vertex and patch data of mesh shadings (types 4 to 7).
struct MeshReader {
    let data: [UInt8]
    var bit = 0
    let bitsPerCoordinate: Int
    let bitsPerComponent: Int
    let bitsPerFlag: Int
    let decode: [Double]
    /// Colour components per vertex (1 when a function gives the colour).
    let components: Int

    var hasData: Bool { bit + bitsPerFlag <= data.count * 8 }

    mutating func read(_ n: Int) -> UInt64? {
        guard n > 0, n <= 32, bit + n <= data.count * 8 else { return n == 0 ? 0 : nil }
        var v: UInt64 = 0
        for _ in 0 ..< n {
            v = v << 1 | UInt64((data[bit >> 3] >> UInt8(7 - bit & 7)) & 1)
            bit += 1
        }
        return v
    }

    mutating func align() { bit = (bit + 7) & ~7 }

    mutating func flag() -> Int? { read(bitsPerFlag).map { Int($0) } }

    mutating func point() -> (Double, Double)? {
        guard let x = read(bitsPerCoordinate), let y = read(bitsPerCoordinate), decode.count >= 4 else { return nil }
        let maxv = Double((UInt64(1) << UInt64(bitsPerCoordinate)) - 1)
        return (decode[0] + Double(x) * (decode[1] - decode[0]) / maxv, decode[2] + Double(y) * (decode[3] - decode[2]) / maxv)
    }

    mutating func color() -> [Double]? {
        var out: [Double] = []
        let maxv = Double((UInt64(1) << UInt64(bitsPerComponent)) - 1)
        for k in 0 ..< components {
            guard let v = read(bitsPerComponent), decode.count >= 6 + 2 * k else { return nil }
            out.append(decode[4 + 2 * k] + Double(v) * (decode[5 + 2 * k] - decode[4 + 2 * k]) / maxv)
        }
        return out
    }
}

extension Interpreter {
    /// The most patches or triangles one mesh shading may hold.
    static let maxMeshPatches = 200_000

    /// A function-based (type 1) or mesh (types 4–7) shading as a ``ShadingSpec``.
    func otherShading(_ sh: PDFDict, stream: PDFStream?, type: Int, cs: ColorSpace, object: Int?) -> ShadingSpec? {
        let fn = sh["Function"].flatMap { PDFFunction.read($0, r) }
        func rgb(_ c: [Double]) -> RGB { cs.toRGB(fn.map { $0(c) } ?? c) }
        if type == 1 {
            guard let fn else { r.warn(.shading, "function-based shading without a function", object: object); return nil }
            return functionShading(sh, function: fn, cs: cs)
        }
        guard let stream, let data = r.streamData(stream) else { return nil }
        let d = stream.dict
        let bpc = r.int(d["BitsPerCoordinate"]) ?? 0, bpcomp = r.int(d["BitsPerComponent"]) ?? 0
        let bpf = type == 5 ? 0 : (r.int(d["BitsPerFlag"]) ?? 0)
        guard [1, 2, 4, 8, 12, 16, 24, 32].contains(bpc), [1, 2, 4, 8, 12, 16].contains(bpcomp),
              type == 5 || [2, 4, 8].contains(bpf), let decode = r.numbers(d["Decode"]) else {
            r.warn(.shading, "mesh shading type \(type) has unusable bit sizes or /Decode", object: object)
            return nil
        }
        var reader = MeshReader(data: data, bitsPerCoordinate: bpc, bitsPerComponent: bpcomp, bitsPerFlag: bpf, decode: decode,
                                components: fn == nil ? cs.components : 1)
        var patches: [MeshPatch] = []
        switch type {
        case 4:
            var verts: [((Double, Double), RGB)] = []
            while reader.hasData && patches.count < Self.maxMeshPatches {
                guard let f = reader.flag(), let p = reader.point(), let c = reader.color() else { break }
                reader.align()
                let v = (p, rgb(c))
                if f == 0 || verts.count < 2 {
                    if f == 0 && verts.count >= 3 { verts = [] }
                    verts.append(v)
                    if verts.count == 3 { patches.append(MeshPatch(points: verts.map(\.0), colors: verts.map(\.1))) }
                    continue
                }
                // Flag 1: (b, c, new); flag 2: (a, c, new).
                let n = verts.count
                let a = verts[n - 3 >= 0 ? n - 3 : 0], b = verts[n - 2], cc = verts[n - 1]
                verts = f == 1 ? [b, cc, v] : [a, cc, v]
                patches.append(MeshPatch(points: verts.map(\.0), colors: verts.map(\.1)))
            }
        case 5:
            let perRow = r.int(d["VerticesPerRow"]) ?? 0
            guard perRow >= 2 else { return nil }
            var rows: [[((Double, Double), RGB)]] = []
            var row: [((Double, Double), RGB)] = []
            while reader.hasData && rows.count * perRow < Self.maxMeshPatches {
                guard let p = reader.point(), let c = reader.color() else { break }
                row.append((p, rgb(c)))
                if row.count == perRow { rows.append(row); row = [] }
            }
            for j in 0 ..< max(0, rows.count - 1) {
                for i in 0 ..< perRow - 1 {
                    let a = rows[j][i], b = rows[j][i + 1], c = rows[j + 1][i], e = rows[j + 1][i + 1]
                    patches.append(MeshPatch(points: [a.0, b.0, c.0], colors: [a.1, b.1, c.1]))
                    patches.append(MeshPatch(points: [b.0, e.0, c.0], colors: [b.1, e.1, c.1]))
                }
            }
        default: // 6 and 7: Coons and tensor-product patches
            var prev: MeshPatch? = nil
            let extra = type == 7 ? 4 : 0
            while reader.hasData && patches.count < Self.maxMeshPatches {
                guard let f = reader.flag() else { break }
                var pts: [(Double, Double)] = []
                var cols: [RGB] = []
                if f != 0 {
                    guard let p = prev else { break }
                    let (s, cs0) = f == 1 ? (3, 1) : (f == 2 ? (6, 2) : (9, 3))
                    pts = (0 ..< 4).map { p.points[(s + $0) % 12] }
                    cols = [p.colors[cs0], p.colors[(cs0 + 1) % 4]]
                }
                var ok = true
                for _ in 0 ..< (f == 0 ? 12 : 8) + extra {
                    guard let q = reader.point() else { ok = false; break }
                    pts.append(q)
                }
                for _ in 0 ..< (f == 0 ? 4 : 2) {
                    guard let c = reader.color() else { ok = false; break }
                    cols.append(rgb(c))
                }
                guard ok, pts.count >= 12, cols.count == 4 else { break }
                let patch = MeshPatch(points: Array(pts.prefix(12)), colors: cols,
                                      interior: type == 7 && pts.count >= 16 ? Array(pts[12 ..< 16]) : nil)
                patches.append(patch)
                prev = patch
            }
        }
        guard !patches.isEmpty else { return nil }
        return ShadingSpec(geometry: .mesh(patches), stops: [], extendStart: false, extendEnd: false, matrix: .identity, background: nil)
    }

    /// A function-based (type 1) shading: its function sampled on a 64 × 64 grid over its domain,
    /// drawn through the shading's matrix.
    func functionShading(_ sh: PDFDict, function fn: PDFFunction, cs: ColorSpace) -> ShadingSpec? {
        let domain = r.numbers(sh["Domain"]) ?? [0, 1, 0, 1]
        guard domain.count >= 4, domain[1] != domain[0], domain[3] != domain[2] else { return nil }
        let n = 64
        let img = DecodedImage(width: n, height: n, isMask: false)
        let px = img.pixels.assumingMemoryBound(to: UInt32.self)
        for j in 0 ..< n {
            for i in 0 ..< n {
                let x = domain[0] + (Double(i) + 0.5) / Double(n) * (domain[1] - domain[0])
                let y = domain[3] - (Double(j) + 0.5) / Double(n) * (domain[3] - domain[2])
                let c = cs.toRGB(fn([x, y]))
                px[j * n + i] = 0xFF00_0000 | UInt32(c.r * 255 + 0.5) << 16 | UInt32(c.g * 255 + 0.5) << 8 | UInt32(c.b * 255 + 0.5)
            }
        }
        let m = r.matrix(sh["Matrix"]) ?? .identity
        // The image's unit square onto the domain, then the shading's matrix.
        let toDomain = PDFMatrix(domain[1] - domain[0], 0, 0, domain[3] - domain[2], domain[0], domain[2])
        return ShadingSpec(geometry: .sampled(img, toDomain.concatenating(m)), stops: [], extendStart: false, extendEnd: false,
                           matrix: .identity, background: nil)
    }
}
