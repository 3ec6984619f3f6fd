import PDFCore

/// The fonts of one document, by font dictionary object, bounded in bytes: past the budget the
/// cache is emptied and fonts load again as pages ask for them.
final class FontCache {
    private var byObject: [Int: PDFFont] = [:]
    private var bytes = 0
    /// The most bytes of font programs kept (default 64 MiB).
    let budget: Int

    init(budget: Int = 64 << 20) { self.budget = budget }

    func font(_ ref: PDFObject, _ r: ResourceReader) -> PDFFont? {
        if let num = ref.refValue?.num, let f = byObject[num] { return f }
        guard let f = FontLoader(r: r).load(ref) else { return nil }
        if let num = ref.refValue?.num {
            if bytes + f.byteCount > budget {
                byObject.removeAll()
                bytes = 0
            }
            byObject[num] = f
            bytes += f.byteCount
        }
        return f
    }
}

/// Which optional content (layers) the default configuration shows.
struct OptionalContent {
    /// Object numbers of the groups that are off.
    var off: Set<Int> = []
    var baseOff = false
    var on: Set<Int> = []

    init() {}

    init(catalog: PDFDict?, _ r: ResourceReader) {
        guard let props = r.dict(catalog?["OCProperties"]), let d = r.dict(props["D"]) else { return }
        baseOff = r.name(d["BaseState"]) == "OFF"
        for o in r.array(d["OFF"]) ?? [] { if let n = o.refValue?.num { off.insert(n) } }
        for o in r.array(d["ON"]) ?? [] { if let n = o.refValue?.num { on.insert(n) } }
    }

    func groupVisible(_ num: Int?) -> Bool {
        guard let num else { return true }
        if baseOff { return on.contains(num) }
        return !off.contains(num)
    }

    /// Whether content marked with this optional-content group or membership dictionary shows.
    func isVisible(_ o: PDFObject?, _ r: ResourceReader) -> Bool {
        guard let o, let d = r.dict(o) else { return true }
        if r.name(d["Type"]) == "OCMD" {
            if d["VE"] != nil { r.warn(.optionalContent, "visibility expression (/VE) read as its /OCGs and /P", object: o.refValue?.num) }
            var groups: [Int?] = []
            switch d["OCGs"] {
            case .array(let a)?: groups = a.map { $0.refValue?.num }
            case .ref(let id)?: groups = [id.num]
            default:
                if case .array(let a) = r.resolve(d["OCGs"]) { groups = a.map { $0.refValue?.num } }
            }
            if groups.isEmpty { return true }
            let vis = groups.map { groupVisible($0) }
            switch r.name(d["P"]) ?? "AnyOn" {
            case "AllOn": return vis.allSatisfy { $0 }
            case "AnyOff": return vis.contains(false)
            case "AllOff": return vis.allSatisfy { !$0 }
            default: return vis.contains(true)
            }
        }
        return groupVisible(o.refValue?.num)
    }
}
