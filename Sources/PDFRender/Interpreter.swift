import PDFCore

/// Limits and shared state for one page's interpretation.
final class RenderContext {
    let reader: ResourceReader
    let fonts: FontCache
    let deadline: ContinuousClock.Instant?
    var timedOut = false
    /// Object numbers of the forms and Type 3 glyphs being drawn (cycle detection).
    var activeForms: [Int] = []
    var formDepth = 0
    let optionalContent: OptionalContent
    /// The most operands kept on the stack; extras are dropped with a warning.
    static let maxOperands = 2048
    /// The deepest nesting of `q` kept; deeper saves are counted and matched but not kept.
    static let maxSaveDepth = 512
    /// The deepest nesting of forms, patterns and Type 3 glyphs.
    static let maxFormDepth = 24
    /// The most pixels one image may decode to.
    static let maxImagePixels = 1 << 26
    /// Output pixels per point of user space on the page (for choosing image decode sizes).
    var deviceScale: Double = 1
    /// Device pixels per unit of the target context's user space when it is a raster (images
    /// larger than the page needs are reduced before drawing); nil for vector targets, where
    /// images keep their samples.
    var rasterScale: Double?
    var operatorCount = 0
    /// Images decoded on this page, by object and size bucket: a form or pattern that draws one
    /// image many times decodes it once.
    var images: [ImageKey: DecodedImage] = [:]
    /// Shadings made on this page, by object number (nil for one that is not drawn).
    var shadings: [Int: ShadingSpec?] = [:]
    /// The bytes of `images`' pixels; past ``maxCachedImageBytes`` the cache is emptied.
    var imageBytes = 0
    /// The most bytes of decoded images kept for reuse on one page: 128 MiB.
    static let maxCachedImageBytes = 128 << 20

    /// An image object decoded for a target size bucket.
    struct ImageKey: Hashable {
        var object: Int
        var scale: Double
        var width: Double
        var height: Double
    }

    /// The smallest of 2^(n/4) (any integer n) that is at least `x`: a decode size bucket, so that
    /// nearly equal sizes share one decoded image and none is decoded below what it needs. `x`
    /// itself when it is not a positive finite number.
    static func sizeBucket(_ x: Double) -> Double {
        guard x.isFinite, x > 0 else { return x }
        let base = Double(sign: .plus, exponent: x.exponent, significand: 1)
        for step in [1.0, 1.189_207_115_002_721, 1.414_213_562_373_095, 1.681_792_830_507_429] where base * step >= x {
            return base * step
        }
        return base * 2
    }

    init(reader: ResourceReader, fonts: FontCache, deadline: ContinuousClock.Instant?, optionalContent: OptionalContent) {
        self.reader = reader
        self.fonts = fonts
        self.deadline = deadline
        self.optionalContent = optionalContent
    }

    func checkTime() -> Bool {
        if timedOut { return false }
        guard let deadline else { return true }
        if ContinuousClock.now > deadline {
            timedOut = true
            return false
        }
        return true
    }
}

/// Runs content streams against a ``PageDevice``.
final class Interpreter {
    let ctx: RenderContext
    var r: ResourceReader { ctx.reader }
    let device: PageDevice
    var resources: PDFDict?
    var gs: GState
    var stack: [GState] = []
    var droppedSaves = 0
    var path = PDFPath()
    var pendingClip: PDFFillRule? = nil
    var operands: [PDFObject] = []
    var tm = PDFMatrix.identity
    var tlm = PDFMatrix.identity
    var inText = false
    var textClipPending = false
    /// The CTM that pattern matrices are relative to (the page's, or the form's at invocation).
    var patternBase: PDFMatrix
    /// Marked-content nesting: whether each level hides its content.
    var markedContent: [Bool] = []
    var hiddenDepth = 0
    /// Type 3 glyph procedures that begin with d1 paint in the current colour only.
    var type3Uncolored = false

    init(ctx: RenderContext, device: PageDevice, resources: PDFDict?, ctm: PDFMatrix) {
        self.ctx = ctx
        self.device = device
        self.resources = resources
        gs = GState(ctm: ctm)
        patternBase = ctm
    }

    // MARK: Running

    func run(_ data: [UInt8], object: Int?) {
        var lex = ContentLexer(data)
        var reportedSkips = 0
        while let t = lex.next() {
            if lex.skipped.count > reportedSkips {
                r.warn(.contentSyntax, "unreadable content-stream syntax skipped", object: object, offset: lex.skipped[reportedSkips])
                reportedSkips = lex.skipped.count
            }
            switch t {
            case .operand(let o):
                if operands.count >= RenderContext.maxOperands {
                    operands.removeFirst()
                    r.warn(.limit, "more than \(RenderContext.maxOperands) operands; the oldest dropped", object: object, offset: lex.offset)
                }
                operands.append(o)
            case .op(let k, let offset):
                ctx.operatorCount += 1
                if ctx.operatorCount & 255 == 0 && !ctx.checkTime() { return }
                if ctx.timedOut { return }
                execute(k, offset: offset, object: object)
                operands.removeAll(keepingCapacity: true)
            case .longOp(let name, let offset):
                r.warn(.contentSyntax, "unknown operator \(name)", object: object, offset: offset)
                operands.removeAll(keepingCapacity: true)
            case .inlineImage(let dict, let bytes, let offset):
                if hiddenDepth == 0 { drawInlineImage(dict, bytes, object: object, offset: offset) }
                operands.removeAll(keepingCapacity: true)
            }
        }
        // Unbalanced q: restore what the stream left saved.
        while !stack.isEmpty { restoreState() }
    }

    // MARK: Operands

    func num(_ i: Int) -> Double {
        guard i < operands.count else { return 0 }
        switch operands[i] {
        case .int(let v): return Double(v)
        case .real(let v): return v.isFinite ? v : 0
        default: return 0
        }
    }

    func nums() -> [Double] { operands.compactMap { if case .int(let v) = $0 { return Double(v) }; if case .real(let v) = $0 { return v }; return nil } }

    func need(_ n: Int, _ name: String, _ object: Int?, _ offset: Int) -> Bool {
        if operands.count >= n { return true }
        r.warn(.contentSyntax, "\(name) needs \(n) operands, has \(operands.count)", object: object, offset: offset)
        return false
    }

    // MARK: Dispatch

    func execute(_ k: UInt32, offset: Int, object: Int?) {
        var n = operands.count
        // Operands are taken from the end, as other readers do when there are too many.
        if n > 6 && k != Op.TJ && k != Op.d && k != Op.SC && k != Op.SCN && k != Op.sc && k != Op.scn {
            operands.removeFirst(n - 6)
            n = 6
        }
        switch k {
        // Graphics state
        case Op.q: saveState()
        case Op.Q: restoreState()
        case Op.cm:
            guard need(6, "cm", object, offset) else { return }
            let m = PDFMatrix(num(0), num(1), num(2), num(3), num(4), num(5))
            if m.isFinite { gs.ctm = m.concatenating(gs.ctm) }
        case Op.w: if n >= 1 { gs.line.width = abs(num(0)) }
        case Op.J: if n >= 1 { gs.line.cap = max(0, min(2, toInt(num(0)))) }
        case Op.j: if n >= 1 { gs.line.join = max(0, min(2, toInt(num(0)))) }
        case Op.M: if n >= 1 { gs.line.miterLimit = max(1, num(0)) }
        case Op.d:
            guard n >= 2 else { return }
            let arr = r.numbers(operands[n - 2]) ?? []
            gs.line.dash = arr.allSatisfy({ $0 >= 0 }) && arr.contains(where: { $0 > 0 }) ? arr : []
            gs.line.dashPhase = num(n - 1)
        case Op.ri, Op.i: break
        case Op.gs: if let name = operands.last?.nameValue { applyExtGState(name, object: object, offset: offset) }
        // Paths
        case Op.m: if need(2, "m", object, offset) { path.move(num(0), num(1)) }
        case Op.l: if need(2, "l", object, offset) { path.line(num(0), num(1)) }
        case Op.c: if need(6, "c", object, offset) { path.curve(num(0), num(1), num(2), num(3), num(4), num(5)) }
        case Op.v:
            if need(4, "v", object, offset) {
                let (x0, y0) = path.current ?? (num(0), num(1))
                path.curve(x0, y0, num(0), num(1), num(2), num(3))
            }
        case Op.y: if need(4, "y", object, offset) { path.curve(num(0), num(1), num(2), num(3), num(2), num(3)) }
        case Op.h: path.close()
        case Op.re: if need(4, "re", object, offset) { path.rectangle(num(0), num(1), num(2), num(3)) }
        case Op.S: paintPath(fill: nil, stroke: true)
        case Op.s: path.close(); paintPath(fill: nil, stroke: true)
        case Op.f, Op.F: paintPath(fill: .nonZero, stroke: false)
        case Op.fStar: paintPath(fill: .evenOdd, stroke: false)
        case Op.B: paintPath(fill: .nonZero, stroke: true)
        case Op.BStar: paintPath(fill: .evenOdd, stroke: true)
        case Op.b: path.close(); paintPath(fill: .nonZero, stroke: true)
        case Op.bStar: path.close(); paintPath(fill: .evenOdd, stroke: true)
        case Op.n: paintPath(fill: nil, stroke: false)
        case Op.W: pendingClip = .nonZero
        case Op.WStar: pendingClip = .evenOdd
        // Text
        case Op.BT, Op.ET, Op.Tc, Op.Tw, Op.Tz, Op.TL, Op.Ts, Op.Tr, Op.Tf, Op.Td, Op.TD, Op.Tm, Op.TStar, Op.Tj, Op.TJ, Op.quote, Op.dquote, Op.d0, Op.d1:
            executeText(k, n, object: object, offset: offset)
        // Colour
        case Op.CS: if let name = operands.last { setColorSpace(name, stroke: true) }
        case Op.cs: if let name = operands.last { setColorSpace(name, stroke: false) }
        case Op.SC, Op.SCN: setColor(stroke: true)
        case Op.sc, Op.scn: setColor(stroke: false)
        case Op.G: setDeviceColor(.gray, stroke: true)
        case Op.g: setDeviceColor(.gray, stroke: false)
        case Op.RG: setDeviceColor(.rgb, stroke: true)
        case Op.rg: setDeviceColor(.rgb, stroke: false)
        case Op.K: setDeviceColor(.cmyk, stroke: true)
        case Op.kk: setDeviceColor(.cmyk, stroke: false)
        // Shading, XObjects, marked content
        case Op.sh: if let name = operands.last?.nameValue, hiddenDepth == 0 { paintShading(name, object: object, offset: offset) }
        case Op.Do: if let name = operands.last?.nameValue, hiddenDepth == 0 { drawXObject(name, object: object, offset: offset) }
        case Op.BMC: markedContent.append(false)
        case Op.BDC:
            var hides = false
            if n >= 2, operands[n - 2].nameValue == "OC" {
                var props: PDFObject? = operands[n - 1]
                if let pname = operands[n - 1].nameValue { props = r.dict(resources?["Properties"])?[pname] }
                hides = !ctx.optionalContent.isVisible(props, r)
            }
            markedContent.append(hides)
            if hides { hiddenDepth += 1 }
        case Op.EMC:
            if let last = markedContent.popLast(), last { hiddenDepth -= 1 }
        case Op.MP, Op.DP, Op.BX, Op.EX: break
        default:
            r.warn(.contentSyntax, "unknown operator \(CMap.opName(k))", object: object, offset: offset)
        }
    }

    /// The text operators (`BT` … `ET`, the text state, positioning and showing, and Type 3's `d0`, `d1`).
    func executeText(_ k: UInt32, _ n: Int, object: Int?, offset: Int) {
        switch k {
        case Op.BT:
            inText = true; tm = .identity; tlm = .identity
        case Op.ET:
            inText = false
            if textClipPending { device.applyTextClip(); textClipPending = false }
        case Op.Tc: if n >= 1 { gs.text.charSpacing = num(0) }
        case Op.Tw: if n >= 1 { gs.text.wordSpacing = num(0) }
        case Op.Tz: if n >= 1 { gs.text.hScale = num(0) / 100 }
        case Op.TL: if n >= 1 { gs.text.leading = num(0) }
        case Op.Ts: if n >= 1 { gs.text.rise = num(0) }
        case Op.Tr: if n >= 1 { gs.text.renderMode = max(0, min(7, toInt(num(0)))) }
        case Op.Tf:
            guard n >= 2 else { return }
            gs.text.size = num(n - 1)
            if let name = operands[n - 2].nameValue { gs.text.font = font(named: name, object: object, offset: offset) }
        case Op.Td: if need(2, "Td", object, offset) { moveLine(num(0), num(1)) }
        case Op.TD:
            if need(2, "TD", object, offset) { gs.text.leading = -num(1); moveLine(num(0), num(1)) }
        case Op.Tm:
            if need(6, "Tm", object, offset) {
                let m = PDFMatrix(num(0), num(1), num(2), num(3), num(4), num(5))
                if m.isFinite { tm = m; tlm = m }
            }
        case Op.TStar: moveLine(0, -gs.text.leading)
        case Op.Tj: if case .string(let s)? = operands.last { showText([.string(s)]) }
        case Op.TJ: if case .array(let a)? = operands.last { showText(a) }
        case Op.quote:
            moveLine(0, -gs.text.leading)
            if case .string(let s)? = operands.last { showText([.string(s)]) }
        case Op.dquote:
            if n >= 3 {
                gs.text.wordSpacing = num(n - 3); gs.text.charSpacing = num(n - 2)
                moveLine(0, -gs.text.leading)
                if case .string(let s)? = operands.last { showText([.string(s)]) }
            }
        case Op.d0: break
        case Op.d1: type3Uncolored = true
        default: break
        }
    }

    // MARK: State

    func saveState() {
        if stack.count >= RenderContext.maxSaveDepth {
            droppedSaves += 1
            return
        }
        stack.append(gs)
        device.save()
    }

    func restoreState() {
        if droppedSaves > 0 { droppedSaves -= 1; return }
        guard let s = stack.popLast() else { return }
        gs = s
        device.restore()
    }

    // MARK: Paths

    func paintState(stroke: Bool) -> PaintState {
        let c = stroke ? gs.stroke : gs.fill
        return PaintState(paint: paint(for: c), alpha: stroke ? gs.strokeAlpha : gs.fillAlpha, blend: gs.blend, softMask: gs.softMask)
    }

    func paintPath(fill: PDFFillRule?, stroke: Bool) {
        defer {
            path = PDFPath()
            pendingClip = nil
        }
        if hiddenDepth == 0 && !path.isEmpty {
            if let fill, !gs.fill.space.paintsNothing { device.fill(path, ctm: gs.ctm, rule: fill, state: paintState(stroke: false)) }
            if stroke, !gs.stroke.space.paintsNothing { device.stroke(path, ctm: gs.ctm, style: gs.line, state: paintState(stroke: true)) }
        }
        if let rule = pendingClip { device.clip(path, ctm: gs.ctm, rule: rule) }
    }

    // MARK: Colour

    func setColorSpace(_ o: PDFObject, stroke: Bool) {
        if type3Uncolored { return }
        let cs = ColorSpace.read(o, resources: resources, r) ?? .gray
        var c = ColorState()
        c.space = cs
        c.components = cs.initialColor
        c.rgb = cs.toRGB(c.components)
        if stroke { gs.stroke = c } else { gs.fill = c }
    }

    func setColor(stroke: Bool) {
        if type3Uncolored { return }
        var c = stroke ? gs.stroke : gs.fill
        let values = nums()
        if case .pattern(let under) = c.space {
            if let name = operands.last?.nameValue { c.pattern = r.dict(resources?["Pattern"])?[name] }
            if let under {
                c.components = Array(values.prefix(under.components))
                c.rgb = under.toRGB(c.components)
            }
        } else {
            c.components = values
            c.rgb = c.space.toRGB(values)
        }
        if stroke { gs.stroke = c } else { gs.fill = c }
    }

    func setDeviceColor(_ cs: ColorSpace, stroke: Bool) {
        if type3Uncolored { return }
        var c = ColorState()
        c.space = cs
        c.components = Array(nums().suffix(cs.components))
        c.rgb = cs.toRGB(c.components)
        if stroke { gs.stroke = c } else { gs.fill = c }
    }

    /// The device paint of a colour state (a pattern becomes a gradient or a tiling).
    func paint(for c: ColorState) -> DevicePaint {
        guard case .pattern = c.space else { return .color(c.rgb) }
        guard let p = c.pattern else { return .color(c.rgb) }
        let pObj = r.resolve(p)
        guard let pd = pObj.dict else { return .color(c.rgb) }
        let m = (r.matrix(pd["Matrix"]) ?? .identity).concatenating(patternBase)
        switch r.int(pd["PatternType"]) {
        case 2:
            guard let sh = pd["Shading"], var g = gradient(sh, object: p.refValue?.num) else { return .color(c.rgb) }
            g.matrix = m
            return .gradient(g)
        case 1:
            guard case .stream(let s) = pObj, let bbox = r.rect(pd["BBox"]) else { return .color(c.rgb) }
            let xStep = r.number(pd["XStep"]) ?? bbox.width, yStep = r.number(pd["YStep"]) ?? bbox.height
            guard xStep != 0, yStep != 0, ctx.formDepth < RenderContext.maxFormDepth else { return .color(c.rgb) }
            let uncolored = r.int(pd["PaintType"]) == 2
            let res = r.dict(pd["Resources"])
            let color = c
            let ctx = self.ctx
            let objNum = s.id?.num ?? p.refValue?.num
            guard let data = r.streamData(s) else { return .color(c.rgb) }
            return .tiling(TilingSpec(bbox: bbox, xStep: abs(xStep), yStep: abs(yStep), matrix: m) { dev in
                ctx.formDepth += 1
                defer { ctx.formDepth -= 1 }
                let sub = Interpreter(ctx: ctx, device: dev, resources: res, ctm: .identity)
                if uncolored {
                    sub.gs.fill = ColorState(space: .rgb, components: [], rgb: color.rgb, pattern: nil)
                    sub.gs.stroke = sub.gs.fill
                    sub.type3Uncolored = true
                }
                sub.run(data, object: objNum)
            })
        default:
            return .color(c.rgb)
        }
    }

    // MARK: Shadings

    /// An axial or radial shading as gradient stops; other types are warned and approximated.
    func gradient(_ shObj: PDFObject, object: Int?) -> ShadingSpec? {
        let resolved = r.resolve(shObj)
        guard let sh = resolved.dict else { return nil }
        // A shading object drawn again on the page (a form repeated, a pattern per shape) is
        // made once, unless its colour space is a name that the current resources define.
        var cacheable = object != nil
        if case .name(let n)? = sh["ColorSpace"], !["DeviceGray", "DeviceRGB", "DeviceCMYK", "G", "RGB", "CMYK"].contains(n) { cacheable = false }
        if cacheable, let object, let cached = ctx.shadings[object] { return cached }
        let spec = makeGradient(sh, resolved: resolved, object: object)
        if cacheable, let object { ctx.shadings[object] = .some(spec) }
        return spec
    }

    func makeGradient(_ sh: PDFDict, resolved: PDFObject, object: Int?) -> ShadingSpec? {
        let type = r.int(sh["ShadingType"]) ?? 0
        guard let cs = ColorSpace.read(sh["ColorSpace"], resources: resources, r) else { return nil }
        guard type == 2 || type == 3 else {
            guard [1, 4, 5, 6, 7].contains(type) else {
                r.warn(.shading, "shading type \(type) is not drawn", object: object)
                return nil
            }
            var stream: PDFStream? = nil
            if case .stream(let s) = resolved { stream = s }
            return otherShading(sh, stream: stream, type: type, cs: cs, object: object)
        }
        guard let coords = r.numbers(sh["Coords"]), coords.count >= (type == 2 ? 4 : 6) else { return nil }
        guard let fn = PDFFunction.read(sh["Function"] ?? .null, r) else {
            r.warn(.shading, "shading function unreadable", object: object)
            return nil
        }
        let domain = r.numbers(sh["Domain"]) ?? [0, 1]
        let ext = (r.array(sh["Extend"]) ?? []).map { r.bool($0) ?? false }
        let t0 = domain.first ?? 0, t1 = domain.count > 1 ? domain[1] : 1
        var stops: [(Double, RGB)] = []
        let n = Self.stopCount(fn)
        for i in 0 ... n {
            let u = Double(i) / Double(n)
            stops.append((u, cs.toRGB(fn([t0 + u * (t1 - t0)]))))
        }
        let geometry: ShadingSpec.Geometry = type == 2
            ? .axial(coords[0], coords[1], coords[2], coords[3])
            : .radial(coords[0], coords[1], coords[2], coords[3], coords[4], coords[5])
        let bg = r.numbers(sh["Background"]).map { cs.toRGB($0) }
        return ShadingSpec(geometry: geometry, stops: stops, extendStart: ext.first ?? false,
                            extendEnd: ext.count > 1 ? ext[1] : false, matrix: .identity, background: bg)
    }

    /// Enough stops for the function: 2 for a linear one, more for others.
    static func stopCount(_ fn: PDFFunction) -> Int {
        switch fn {
        case .exponential(_, _, _, let n) where n == 1: return 1
        case .stitching(_, let fs, _, _):
            return min(256, fs.reduce(0) { $0 + stopCount($1) } * 2)
        default: return 64
        }
    }

    func paintShading(_ name: String, object: Int?, offset: Int) {
        guard let shObj = r.dict(resources?["Shading"])?[name], let sh = r.dict(shObj) else {
            r.warn(.shading, "shading /\(name) not found", object: object, offset: offset)
            return
        }
        guard var g = gradient(shObj, object: shObj.refValue?.num) else { return }
        g.matrix = .identity
        if let bbox = r.rect(sh["BBox"]) {
            device.save()
            var p = PDFPath(); p.rectangle(bbox.x0, bbox.y0, bbox.width, bbox.height)
            device.clip(p, ctm: gs.ctm, rule: .nonZero)
            device.paintGradient(g, ctm: gs.ctm, state: PaintState(paint: .gradient(g), alpha: gs.fillAlpha, blend: gs.blend, softMask: gs.softMask))
            device.restore()
        } else {
            device.paintGradient(g, ctm: gs.ctm, state: PaintState(paint: .gradient(g), alpha: gs.fillAlpha, blend: gs.blend, softMask: gs.softMask))
        }
    }

    // MARK: ExtGState

    func applyExtGState(_ name: String, object: Int?, offset: Int) {
        guard let egObj = r.dict(resources?["ExtGState"])?[name], let eg = r.dict(egObj) else {
            r.warn(.contentSyntax, "graphics state /\(name) not found", object: object, offset: offset)
            return
        }
        for (key, value) in eg {
            switch key {
            case "LW": if let v = r.number(value) { gs.line.width = abs(v) }
            case "LC": if let v = r.int(value) { gs.line.cap = max(0, min(2, v)) }
            case "LJ": if let v = r.int(value) { gs.line.join = max(0, min(2, v)) }
            case "ML": if let v = r.number(value) { gs.line.miterLimit = max(1, v) }
            case "D":
                if let a = r.array(value), a.count >= 2 {
                    gs.line.dash = r.numbers(a[0]) ?? []
                    gs.line.dashPhase = r.number(a[1]) ?? 0
                }
            case "CA": if let v = r.number(value) { gs.strokeAlpha = clip(v, 0, 1) }
            case "ca": if let v = r.number(value) { gs.fillAlpha = clip(v, 0, 1) }
            case "BM":
                var bm: String? = r.name(value)
                if bm == nil, let a = r.array(value) { bm = a.compactMap { r.name($0) }.first { BlendMode(rawValue: $0) != nil } }
                if let bm { gs.blend = BlendMode(rawValue: bm) ?? (bm == "Compatible" ? .normal : gs.blend) }
            case "Font":
                if let a = r.array(value), a.count >= 2, let f = ctx.fonts.font(a[0], r) {
                    gs.text.font = f
                    gs.text.size = r.number(a[1]) ?? gs.text.size
                }
            case "SMask":
                gs.softMask = softMask(value, object: egObj.refValue?.num)
            default: break
            }
        }
    }

    func softMask(_ value: PDFObject, object: Int?) -> SoftMaskSpec? {
        if r.name(value) == "None" { return nil }
        guard let md = r.dict(value), case .stream(let group)? = r.resolveOpt(md["G"]), let data = r.streamData(group) else { return nil }
        let luminosity = r.name(md["S"]) != "Alpha"
        let gd = group.dict
        // The backdrop: `/BC` in the group's colour space, by default zero in every component (as
        // poppler and PDFium read it): black in Gray and RGB, white in CMYK.
        var backdrop = RGB.black
        if let cs = ColorSpace.read(r.dict(gd["Group"])?["CS"], resources: resources, r) {
            backdrop = cs.toRGB(r.numbers(md["BC"]) ?? [Double](repeating: 0, count: cs.components))
        }
        // The transfer function maps each mask value (0...1) before use: a table of 256 values.
        var transfer: [UInt8]? = nil
        if md["TR"] != nil, r.name(md["TR"]) != "Identity" {
            if let f = PDFFunction.read(r.resolve(md["TR"]), r) {
                transfer = (0 ..< 256).map { k in
                    let v = f([Double(k) / 255]).first ?? Double(k) / 255
                    return UInt8(clip(v.isFinite ? v : 0, 0, 1) * 255 + 0.5)
                }
            } else {
                r.warn(.transparency, "soft mask transfer function cannot be read; the identity is used", object: object)
            }
        }
        let ctm = gs.ctm
        let ctx = self.ctx
        let res = r.dict(gd["Resources"])
        let formMatrix = r.matrix(gd["Matrix"]) ?? .identity
        let bbox = r.rect(gd["BBox"])
        let objNum = group.id?.num
        return SoftMaskSpec(luminosity: luminosity, backdrop: backdrop, transfer: transfer) { dev in
            guard ctx.formDepth < RenderContext.maxFormDepth else { return }
            ctx.formDepth += 1
            defer { ctx.formDepth -= 1 }
            let sub = Interpreter(ctx: ctx, device: dev, resources: res, ctm: formMatrix.concatenating(ctm))
            if let bbox {
                var p = PDFPath(); p.rectangle(bbox.x0, bbox.y0, bbox.width, bbox.height)
                dev.clip(p, ctm: sub.gs.ctm, rule: .nonZero)
            }
            sub.run(data, object: objNum)
        }
    }

    // MARK: XObjects

    func drawXObject(_ name: String, object: Int?, offset: Int) {
        guard let xo = r.dict(resources?["XObject"])?[name] else {
            r.warn(.contentSyntax, "XObject /\(name) not found", object: object, offset: offset)
            return
        }
        guard case .stream(let s) = r.resolve(xo) else { return }
        let d = s.dict
        if d["OC"] != nil && !ctx.optionalContent.isVisible(d["OC"], r) { return }
        switch r.name(d["Subtype"]) {
        case "Image":
            drawImage(s, object: xo.refValue?.num ?? s.id?.num)
        case "Form":
            drawForm(s, object: xo.refValue?.num ?? s.id?.num)
        case "PS": break
        default:
            r.warn(.contentSyntax, "XObject /\(name) has an unknown subtype", object: xo.refValue?.num, offset: offset)
        }
    }

    func drawForm(_ s: PDFStream, object: Int?, extraMatrix: PDFMatrix? = nil) {
        if let object, ctx.activeForms.contains(object) {
            r.warn(.limit, "form XObject draws itself (a cycle); the inner use is skipped", object: object)
            return
        }
        guard ctx.formDepth < RenderContext.maxFormDepth else {
            r.warn(.limit, "forms nested deeper than \(RenderContext.maxFormDepth)", object: object)
            return
        }
        guard let data = r.streamData(s) else { return }
        let d = s.dict
        let formMatrix = r.matrix(d["Matrix"]) ?? .identity
        let ctm = formMatrix.concatenating(extraMatrix ?? .identity).concatenating(gs.ctm)
        let group = r.dict(d["Group"])
        let isGroup = r.name(group?["S"]) == "Transparency"
        let needsGroup = isGroup && (gs.fillAlpha < 1 || gs.blend != .normal || gs.softMask != nil)
        if let object { ctx.activeForms.append(object) }
        ctx.formDepth += 1
        defer {
            ctx.formDepth -= 1
            if object != nil { ctx.activeForms.removeLast() }
        }
        saveState()
        if needsGroup { device.beginGroup() }
        let sub = Interpreter(ctx: ctx, device: device, resources: r.dict(d["Resources"]) ?? resources, ctm: ctm)
        sub.gs.fill = gs.fill
        sub.gs.stroke = gs.stroke
        sub.gs.line = gs.line
        sub.gs.text = gs.text
        sub.gs.fillAlpha = needsGroup ? 1 : gs.fillAlpha
        sub.gs.strokeAlpha = needsGroup ? 1 : gs.strokeAlpha
        sub.gs.blend = needsGroup ? .normal : gs.blend
        sub.gs.softMask = needsGroup ? nil : gs.softMask
        sub.type3Uncolored = type3Uncolored
        if let bbox = r.rect(d["BBox"]) {
            var p = PDFPath(); p.rectangle(bbox.x0, bbox.y0, bbox.width, bbox.height)
            device.clip(p, ctm: ctm, rule: .nonZero)
        }
        sub.run(data, object: object)
        if needsGroup {
            device.endGroup(state: PaintState(paint: .color(.black), alpha: gs.fillAlpha, blend: gs.blend, softMask: gs.softMask))
        }
        restoreState()
    }

    func drawImage(_ s: PDFStream, object: Int?) {
        paintImage(dict: s.dict, stream: s, inlineData: nil, object: object)
    }

    func drawInlineImage(_ dict: PDFDict, _ bytes: [UInt8], object: Int?, offset: Int) {
        paintImage(dict: ImageDecoder.expandInline(dict), stream: nil, inlineData: bytes, object: object)
    }

    /// Decodes an image (from its stream, or an inline image's bytes) at the size the page needs
    /// and paints it: a stencil mask in the fill paint, any other image as it is.
    func paintImage(dict: PDFDict, stream: PDFStream?, inlineData: [UInt8]?, object: Int?) {
        let dec = ImageDecoder(r: r, resources: resources)
        let m = gs.ctm
        let scale = RenderContext.sizeBucket(m.scale * ctx.deviceScale)
        let target = ctx.rasterScale.map { raster in
            ImageTarget(width: RenderContext.sizeBucket((m.a * m.a + m.b * m.b).squareRoot() * ctx.deviceScale * raster),
                        height: RenderContext.sizeBucket((m.c * m.c + m.d * m.d).squareRoot() * ctx.deviceScale * raster))
        }
        let key = stream != nil ? object.map { RenderContext.ImageKey(object: $0, scale: scale, width: target?.width ?? -1, height: target?.height ?? -1) } : nil
        let decoded: DecodedImage?
        if let key, let cached = ctx.images[key] {
            decoded = cached
        } else {
            decoded = dec.decode(dict: dict, stream: stream, inlineData: inlineData, object: object, fill: gs.fill, targetScale: scale, target: target)
            if let key, let decoded {
                let bytes = decoded.stride * decoded.height
                if ctx.imageBytes + bytes > RenderContext.maxCachedImageBytes {
                    ctx.images.removeAll()
                    ctx.imageBytes = 0
                }
                if bytes <= RenderContext.maxCachedImageBytes {
                    ctx.images[key] = decoded
                    ctx.imageBytes += bytes
                }
            }
        }
        guard let img = decoded else { return }
        if img.isMask {
            device.stencil(img, ctm: gs.ctm, state: paintState(stroke: false))
        } else {
            device.image(img, ctm: gs.ctm, state: PaintState(paint: .color(.black), alpha: gs.fillAlpha, blend: gs.blend, softMask: gs.softMask),
                         interpolate: r.bool(dict["Interpolate"]) ?? false)
        }
    }

    // MARK: Text

    func font(named name: String, object: Int?, offset: Int) -> PDFFont? {
        guard let ref = r.dict(resources?["Font"])?[name] else {
            r.warn(.font, "font /\(name) not found in the resources", object: object, offset: offset)
            return nil
        }
        return ctx.fonts.font(ref, r)
    }

    func moveLine(_ tx: Double, _ ty: Double) {
        tlm = PDFMatrix.translation(tx, ty).concatenating(tlm)
        tm = tlm
    }

    func showText(_ items: [PDFObject]) {
        guard let font = gs.text.font else { return }
        let ts = gs.text
        let mode = ts.renderMode
        let visible = hiddenDepth == 0 && mode != 3 && mode != 7
        var glyphs: [(id: UInt32, x: Double, y: Double, scale: Double)] = []
        var x = 0.0, y = 0.0
        let start = tm
        for item in items {
            switch item {
            case .string(let s) where font.vertical:
                // Vertical writing: each glyph hangs from its position vector; the pen moves down.
                for (code, len) in font.codes(s) {
                    let m = font.verticalMetrics(code)
                    glyphs.append((font.glyph(code), x - m.vx * ts.size, y - m.vy * ts.size + ts.rise, 1))
                    var adv = m.w1 * ts.size - ts.charSpacing
                    if font.isSpace(code, length: len) { adv -= ts.wordSpacing }
                    y += adv
                }
            case .int where font.vertical, .real where font.vertical:
                let v = item.intValue.map(Double.init) ?? { if case .real(let d) = item { return d }; return 0 }()
                y -= v / 1000 * ts.size
            case .string(let s):
                for (code, len) in font.codes(s) {
                    let w = font.width(code)
                    if font.kind == .type3 {
                        if visible { drawType3Glyph(font, code: code, at: x) }
                    } else {
                        glyphs.append((font.glyph(code), x, ts.rise, font.scale(code)))
                    }
                    var adv = w * ts.size + ts.charSpacing
                    if font.isSpace(code, length: len) { adv += ts.wordSpacing }
                    x += adv * ts.hScale
                }
            case .int, .real:
                let v = item.intValue.map(Double.init) ?? { if case .real(let d) = item { return d }; return 0 }()
                x -= v / 1000 * ts.size * ts.hScale
            default: break
            }
        }
        if font.kind != .type3 && !glyphs.isEmpty && font.face != nil && (visible || mode >= 4) && ts.size != 0 {
            let run = GlyphRun(font: font, matrix: start.concatenating(gs.ctm), sizeX: ts.size * ts.hScale, sizeY: ts.size, glyphs: glyphs)
            let fills = visible && (mode == 0 || mode == 2 || mode == 4 || mode == 6) && !gs.fill.space.paintsNothing
            let strokes = visible && (mode == 1 || mode == 2 || mode == 5 || mode == 6) && !gs.stroke.space.paintsNothing
            let clips = mode >= 4
            device.glyphs(run, fill: fills ? paintState(stroke: false) : nil,
                          stroke: strokes ? (gs.line, paintState(stroke: true), gs.ctm) : nil, addToClip: clips)
            if clips { textClipPending = true }
        }
        tm = PDFMatrix.translation(x, y).concatenating(start)
    }

    func drawType3Glyph(_ font: PDFFont, code: UInt32, at x: Double) {
        guard code < 256, let name = font.names[Int(code)], let procObj = font.charProcs?[name],
              case .stream(let s) = r.resolve(procObj), let data = r.streamData(s) else { return }
        let key = procObj.refValue?.num ?? -1
        if ctx.activeForms.contains(key) || ctx.formDepth >= RenderContext.maxFormDepth { return }
        ctx.activeForms.append(key)
        ctx.formDepth += 1
        defer { ctx.activeForms.removeLast(); ctx.formDepth -= 1 }
        let ts = gs.text
        let placement = PDFMatrix(ts.size * ts.hScale, 0, 0, ts.size, 0, ts.rise)
            .concatenating(.translation(x, 0)).concatenating(tm)
        let ctm = font.fontMatrix.concatenating(placement).concatenating(gs.ctm)
        device.save()
        let sub = Interpreter(ctx: ctx, device: device, resources: font.resources ?? resources, ctm: ctm)
        sub.gs.fill = gs.fill
        sub.gs.stroke = gs.stroke
        sub.gs.fillAlpha = gs.fillAlpha
        sub.gs.strokeAlpha = gs.strokeAlpha
        sub.gs.blend = gs.blend
        sub.run(data, object: key)
        device.restore()
    }
}
