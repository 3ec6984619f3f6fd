extension Document {
    /// The page count of the document whose catalog is `catalog`, or nil (with a `pageCount`
    /// warning) when there is no page tree to count.
    ///
    /// Beside a normal tree (see ``pageCount(root:rootRef:declared:)``): `/Pages` pointing
    /// straight at a page is 1 page (poppler, qpdf); a root without a usable `/Count` (missing,
    /// not a number, negative) is walked and its leaves counted (qpdf, pikepdf), with a
    /// `pageCount` warning either way; when none of its kids can be read, the count is unknown
    /// (nil), not 0.
    package func pageCount(catalog: PDFDict) throws -> Int? {
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
        guard let walk = try countLeaves(kids: try kidList(root, hint: hint), rootRef: rootRef) else {
            try warn(.pageCount, "the page tree root has no usable /Count, and the tree has more than "
                     + "\(options.maxPageTreeNodes) nodes", offset: hint)
            return nil
        }
        if walk.leaves == 0 && walk.unreadable > 0 {
            try warn(.pageCount, "the page tree root has no usable /Count, and no page of the tree can be read "
                     + "(\(Self.kidsPhrase(walk.unreadable)) unreadable)", offset: hint)
            return nil
        }
        try warn(.pageCount, "the page tree root has no usable /Count; the tree has \(walk.leaves) pages", offset: hint)
        return walk.leaves
    }

    /// A node's kids: the items of its `/Kids` array, or, when `/Kids` is a dictionary (most
    /// often a reference to the one page, where an array of it was meant), that one kid, with a
    /// `pageCount` warning (poppler and pdf.js count such a tree by its `/Count`, which this
    /// agrees with). A `/Kids` reference that cannot be read, or leads to no object, is one
    /// unreadable kid; anything else gives no kids.
    package func kidList(_ node: PDFDict, hint: Int?) throws -> [PDFObject] {
        guard let value = node["Kids"] else { return [] }
        let resolved: PDFObject
        do {
            resolved = try resolve(value)
        } catch let e as PDFError where e.kind != .strictModeViolation && e.kind != .io && e.kind != .passwordRequired {
            return value.refValue == nil ? [] : [value]
        }
        if let items = resolved.arrayValue { return items }
        if case .null = resolved, value.refValue != nil { return [value] } // leads to no object: one unreadable kid
        guard resolved.dict != nil else { return [] }
        try warn(.pageCount, "a page tree node's /Kids is one dictionary, not an array: read as its one kid", offset: hint)
        return [value]
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
    /// are counted once). A walk that finds no page because no kid can be read keeps `/Count`
    /// (as poppler and pdf.js do) when the file has that many objects, else gives nil.
    package func pageCount(root: PDFDict, rootRef: PDFObject?, declared: Int) throws -> Int? {
        // Page objects are small: a first window of one block keeps each to about 1 KB read.
        let window = objectWindow
        objectWindow = 256
        defer { objectWindow = window }
        let hint = rootRef?.refValue.flatMap { offsetHint($0.num) }
        let kids = try kidList(root, hint: hint)
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
        guard let walk = try countLeaves(kids: kids, rootRef: rootRef) else {
            try warn(.pageCount, "the page tree root's /Count \(declared) disagrees with its kids, and the tree has more than "
                     + "\(options.maxPageTreeNodes) nodes: /Count is kept", offset: hint)
            return declared
        }
        if walk.leaves == 0 && walk.unreadable > 0 && declared > 0 {
            // No page found because none could be read is not a document without pages: /Count
            // is kept (poppler, pdf.js), when the file has an object for every page it claims
            // (poppler's bound; a damaged /Count can be any number).
            guard declared <= xref.count else {
                try warn(.pageCount, "the page tree root's /Count is \(declared), more than the file's \(xref.count) objects, "
                         + "and no page of the tree can be read (\(Self.kidsPhrase(walk.unreadable)) unreadable): no page count",
                         offset: hint)
                return nil
            }
            try warn(.pageCount, "the page tree root's /Count is \(declared), and no page of the tree can be read "
                     + "(\(Self.kidsPhrase(walk.unreadable)) unreadable): /Count is kept", offset: hint)
            return declared
        }
        if walk.leaves != declared {
            try warn(.pageCount, "the page tree root's /Count is \(declared); the tree has \(walk.leaves) pages", offset: hint)
        }
        return walk.leaves
    }

    /// The pages a kid of the root claims: 1 for a page, `/Count` for an intermediate node, 0 for
    /// something that is neither (skipped by every reader); nil when a node has no usable
    /// `/Count` or the kid cannot be read.
    package func kidCount(_ kid: PDFObject) throws -> Int? {
        let obj: PDFObject
        do {
            obj = try resolve(kid)
        } catch let e as PDFError where e.kind != .strictModeViolation && e.kind != .io && e.kind != .passwordRequired {
            return nil
        }
        guard let d = obj.dict else { return 0 }
        guard isNode(d) else { return 1 }
        // An unreadable /Count is no count: the caller counts the leaves instead.
        guard let n = try? resolve(d["Count"]).intValue, n >= 0 else { return nil }
        return n
    }

    /// An intermediate node has a `/Kids` array (or says `/Type /Pages`); anything else that is a
    /// dictionary is a page.
    package func isNode(_ d: PDFDict) -> Bool {
        if d["Type"]?.nameValue == "Page" { return false }
        if d["Type"]?.nameValue == "Pages" { return true }
        if case .array? = d["Kids"] { return true }
        if case .ref? = d["Kids"] { return true }
        return false
    }

    /// "1 kid", "2 kids".
    package static func kidsPhrase(_ n: Int) -> String { n == 1 ? "1 kid" : "\(n) kids" }

    /// The number of pages under the root `rootRef` whose ``kidList(_:hint:)`` is `kids`, each
    /// object visited once, and the number of kid references that could not be read or lead to no
    /// object (skipped); nil past ``PDFReadOptions/maxPageTreeNodes`` nodes.
    package func countLeaves(kids: [PDFObject], rootRef: PDFObject?) throws -> (leaves: Int, unreadable: Int)? {
        var seen = Set<ObjectID>()
        if let id = rootRef?.refValue { seen.insert(id) }
        var stack: [[PDFObject]] = [kids]
        var leaves = 0
        var unreadable = 0
        var nodes = 1
        while let kids = stack.popLast() {
            for kid in kids.reversed() {
                if case .ref(let id) = kid, !seen.insert(id).inserted { continue }
                nodes += 1
                if nodes > options.maxPageTreeNodes { return nil }
                let obj: PDFObject
                do {
                    obj = try resolve(kid)
                } catch let e as PDFError where e.kind != .strictModeViolation && e.kind != .io && e.kind != .passwordRequired {
                    unreadable += 1
                    continue
                }
                guard let d = obj.dict else {
                    // A reference to an object that is not there is a damaged tree, not a
                    // document with fewer pages.
                    if kid.refValue != nil, case .null = obj { unreadable += 1 }
                    continue
                }
                if isNode(d) {
                    stack.append(try kidList(d, hint: kid.refValue.flatMap { offsetHint($0.num) }))
                } else {
                    leaves += 1
                }
            }
        }
        return (leaves, unreadable)
    }
}
