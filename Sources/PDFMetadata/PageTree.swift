extension Document {
    /// The page count of the document whose catalog is `catalog`, or nil (with a `pageCount`
    /// warning) when there is no page tree to count.
    ///
    /// Beside a normal tree (see ``pageCount(root:rootRef:declared:)``): `/Pages` pointing
    /// straight at a page is 1 page (poppler, qpdf); a root without a usable `/Count` (missing,
    /// not a number, negative) is walked and its leaves counted (qpdf, pikepdf), with a
    /// `pageCount` warning either way.
    func pageCount(catalog: PDFDict) throws -> Int? {
        let rootRef = catalog["Pages"]
        let hint = rootRef?.refValue.flatMap { offsetHint($0.num) }
        guard let root = try resolve(rootRef).dict else {
            try warn(.pageCount, "the catalog has no page tree root (/Pages)", offset: hint)
            return nil
        }
        let type = root["Type"]?.nameValue
        if type == "Page" || (type == nil && !isNode(root) && (root["Contents"] != nil || root["MediaBox"] != nil)) {
            try warn(.pageCount, "/Pages points straight at a page, not a page tree node: 1 page", offset: hint)
            return 1
        }
        if let n = try resolve(root["Count"]).intValue, n >= 0 {
            return try pageCount(root: root, rootRef: rootRef, declared: n)
        }
        guard let leaves = try countLeaves(root: root, rootRef: rootRef) else {
            try warn(.pageCount, "the page tree root has no usable /Count, and the tree has more than "
                     + "\(options.maxPageTreeNodes) nodes", offset: hint)
            return nil
        }
        try warn(.pageCount, "the page tree root has no usable /Count; the tree has \(leaves) pages", offset: hint)
        return leaves
    }

    /// The page count: the page tree root's `/Count` when its kids bear it out, else the number
    /// of leaves found by walking the tree (as qpdf's page list, pikepdf's, and pypdf count them).
    ///
    /// A normal file costs a few objects, not a walk: the root's `/Count` is checked against its
    /// kids. More kids than `/Count` is a disagreement at once. Fewer kids (an intermediate level)
    /// are all read and their `/Count`s summed. As many kids as `/Count` agree when the kids are
    /// pages: the first and the last kid are read (tree writers fill a level with one kind of
    /// node, and appended kids come last), so a flat tree of thousands of pages costs two
    /// objects. Only a disagreement starts the walk, which is bounded by
    /// ``PDFReadOptions/maxPageTreeNodes`` and visits each object once (loops and shared kids
    /// are counted once).
    func pageCount(root: PDFDict, rootRef: PDFObject?, declared: Int) throws -> Int {
        // Page objects are small: a first window of one block keeps each to about 1 KB read.
        let window = objectWindow
        objectWindow = 256
        defer { objectWindow = window }
        let kids = try resolve(root["Kids"]).arrayValue ?? []
        let hint = rootRef?.refValue.flatMap { offsetHint($0.num) }
        var agrees: Bool
        if kids.count > declared {
            agrees = false
        } else if kids.count < declared {
            var sum = 0
            agrees = true
            for kid in kids {
                guard let n = try kidCount(kid) else { agrees = false; break }
                sum += n
                if sum > declared { break }
            }
            agrees = agrees && sum == declared
        } else {
            let sample = kids.count <= 2 ? kids : [kids[0], kids[kids.count - 1]]
            agrees = true
            for kid in sample where try kidCount(kid) != 1 {
                agrees = false
                break
            }
        }
        if agrees { return declared }
        guard let leaves = try countLeaves(root: root, rootRef: rootRef) else {
            try warn(.pageCount, "the page tree root's /Count \(declared) disagrees with its kids, and the tree has more than "
                     + "\(options.maxPageTreeNodes) nodes: /Count is kept", offset: hint)
            return declared
        }
        if leaves != declared {
            try warn(.pageCount, "the page tree root's /Count is \(declared); the tree has \(leaves) pages", offset: hint)
        }
        return leaves
    }

    /// The pages a kid of the root claims: 1 for a page, `/Count` for an intermediate node, 0 for
    /// something that is neither (skipped by every reader); nil when a node has no usable
    /// `/Count` or the kid cannot be read.
    func kidCount(_ kid: PDFObject) throws -> Int? {
        let obj: PDFObject
        do {
            obj = try resolve(kid)
        } catch let e as PDFError where e.kind != .strictModeViolation && e.kind != .io && e.kind != .passwordRequired {
            return nil
        }
        guard let d = obj.dict else { return 0 }
        guard isNode(d) else { return 1 }
        guard let n = try? resolve(d["Count"]).intValue, n >= 0 else { return nil }
        return n
    }

    /// An intermediate node has a `/Kids` array (or says `/Type /Pages`); anything else that is a
    /// dictionary is a page.
    func isNode(_ d: PDFDict) -> Bool {
        if d["Type"]?.nameValue == "Page" { return false }
        if d["Type"]?.nameValue == "Pages" { return true }
        if case .array? = d["Kids"] { return true }
        if case .ref? = d["Kids"] { return true }
        return false
    }

    /// The number of pages under `root`, each object visited once; nil past
    /// ``PDFReadOptions/maxPageTreeNodes`` nodes. Kids that cannot be read are skipped.
    func countLeaves(root: PDFDict, rootRef: PDFObject?) throws -> Int? {
        var seen = Set<ObjectID>()
        if let id = rootRef?.refValue { seen.insert(id) }
        var stack: [PDFObject] = [(try? resolve(root["Kids"])) ?? .null]
        var leaves = 0
        var nodes = 1
        while let top = stack.popLast() {
            guard case .array(let kids) = top else { continue }
            for kid in kids.reversed() {
                if case .ref(let id) = kid, !seen.insert(id).inserted { continue }
                nodes += 1
                if nodes > options.maxPageTreeNodes { return nil }
                let obj: PDFObject
                do {
                    obj = try resolve(kid)
                } catch let e as PDFError where e.kind != .strictModeViolation && e.kind != .io && e.kind != .passwordRequired {
                    continue
                }
                guard let d = obj.dict else { continue }
                if isNode(d) {
                    stack.append((try? resolve(d["Kids"])) ?? .null)
                } else {
                    leaves += 1
                }
            }
        }
        return leaves
    }
}
