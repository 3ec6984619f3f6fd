import BubblePhysics

/// The filter sheet's field and the keyword counts it shows, with the chips' measured widths.
struct FilterSheetState {
    var query: String
    var tallies: [KeywordTally]
    /// The width of each tally's chip text (pt), by position in `tallies`.
    var textWidths: [Double]
}

// The keyword filter (the Filter button): the sheet of chips, the selected keywords, and the
// derived view of the levels that shows only the matching reports.
extension Dashboard {
    /// The most keyword counts the filter sheet asks for.
    static let maxTallies = 200

    func openFilterSheet() {
        guard finder != nil else {
            showNotice("Search needs an index")
            return
        }
        if let o = overlay, o.content == .filterSheet, !o.closing { return }
        endDrag()
        filterSheet = FilterSheetState(query: "", tallies: [], textWidths: [])
        refreshTallies()
        openOverlay(.filterSheet)
    }

    /// Whether the filter sheet is open (not fading out).
    public var isFilterSheetOpen: Bool {
        if let o = overlay, o.content == .filterSheet, !o.closing { return true }
        return false
    }

    func setFilterQuery(_ text: String) throws(DashboardError) {
        guard isFilterSheetOpen, filterSheet != nil else { throw .noFilterSheetOpen }
        filterSheet!.query = try checkedText(text, field: "filter field")
    }

    func toggleKeyword(_ keyword: String) throws(DashboardError) {
        guard let finder else { throw .searchUnavailable }
        guard let known = finder.knownKeyword(keyword) else { throw .unknownKeyword(keyword) }
        var next = filterKeywords
        if let i = next.firstIndex(of: known) { next.remove(at: i) } else { next.append(known) }
        try applyFilter(next)
    }

    func setFilter(_ keywords: [String]) throws(DashboardError) {
        guard let finder else { throw .searchUnavailable }
        var known: [String] = []
        for k in keywords {
            _ = try checkedText(k, field: "filter keyword")
            guard let spelling = finder.knownKeyword(k) else { throw .unknownKeyword(k) }
            if !known.contains(spelling) { known.append(spelling) }
        }
        try applyFilter(known)
    }

    /// Shows only the reports that carry every keyword of `keywords` (all reports for none): the
    /// level's non-matching children fade out where they are, the rest glide to their places in
    /// the level laid out again (and regrouped) from the matching children, and new ones grow in.
    func applyFilter(_ keywords: [String]) throws(DashboardError) {
        if keywords == filterKeywords { return }
        var matches: [Bool]? = nil
        if !keywords.isEmpty, let finder {
            var m = [Bool](repeating: false, count: levels.source.nodes.count)
            let nodes = levels.source.nodes
            for r in finder.reports(carrying: keywords) where r > 0 && r < m.count && nodes[r].kind == .report { m[r] = true }
            matches = m
        }
        let previousPath = focusPath
        try switchView(to: keywords, matches: matches)
        if isFilterSheetOpen { refreshTallies() }
        if let level = openTableLevel, levels.nodes.indices.contains(level) {
            resetTable(tableGeometry(rows: tableRows(of: level).count).rowsArea)
        }
        if isStartScreen { return }
        // The focus path stays (a category without a match shows "No reports with …"), down to
        // the first group of the view left: its level is regrouped.
        var path: [Int] = []
        for n in previousPath {
            if levels.isGroup(n), let last = path.last, levels.parents[n] != last || !levels.nodes[last].children.contains(n) { break }
            path.append(n)
        }
        if path.isEmpty { path = [0] }
        if path == previousPath {
            try repack(focus)
        } else {
            try jump(to: path)
        }
    }

    /// Shows the view of `keywords` in `levels`, keeping the layouts of the view left for when it
    /// comes back.
    func switchView(to keywords: [String], matches: [Bool]?) throws(DashboardError) {
        let key = keywords.joined(separator: "\u{1F}")
        savedLayouts[levels.viewKey] = ViewLayouts(layouts: layouts, labels: labels, places: places, groupingDecided: groupingDecided)
        levels.showView(key, matches: matches)
        let restored = savedLayouts.removeValue(forKey: key)
        // Layouts of views the model no longer keeps go too.
        let kept = levels.keptViewKeys
        for old in savedLayouts.keys.sorted() where !kept.contains(old) { savedLayouts[old] = nil }
        layouts = restored?.layouts ?? [:]
        labels = restored?.labels ?? [:]
        places = restored?.places ?? [:]
        groupingDecided = restored?.groupingDecided ?? []
        filterKeywords = keywords
        filterTokenWidths = keywords.map { min(220, chipTextWidth($0)) + 12 + 24 }
        filterMatchTotal = levels.matchCounts.map { $0[0] } ?? 0
    }

    /// The focus stays; its level is laid out again for the children the view shows.
    func repack(_ node: Int) throws(DashboardError) {
        endDrag()
        placesPending = false
        let lay = try layout(of: node)
        let targets = places[node] ?? lay.home
        places[node] = targets
        var slot: [Int: Int] = [:]
        for (k, child) in lay.children.enumerated() { slot[child] = k }
        for b in live where b.role == .child && slot[b.node] == nil {
            makeGhost(b, into: nil)
        }
        live.removeAll { $0.role == .child && slot[$0.node] == nil }
        let now = time
        let duration = settings.motion.focusDuration
        for i in live.indices {
            switch live[i].role {
            case .focus:
                let from = live[i].transit.map { $0.position(at: now) } ?? position(of: live[i])
                live[i].transit = glide(
                    from: from, to: lay.centre, radius: live[i].radiusTween(to: lay.focusRadius, at: now, duration: duration), endsDynamic: false)
            case .child:
                guard let k = slot[live[i].node] else { continue }
                moveChild(i, to: targets[k], shape: lay.shapes[k], duration: duration)
            }
        }
        try showChildren(of: node, delay: settings.motion.collapseDuration * 0.5)
        world.wake()
    }

    /// Sends live child `i` gliding to `target` with a new `shape`: a circle resizes on the way, a
    /// card takes its new size at once and is scaled from the old one to it.
    /// `rescaleEqual` rescales a card of unchanged size too (the resize's behaviour).
    func moveChild(_ i: Int, to target: Vector2, shape: Shape, duration: Double, rescaleEqual: Bool = false) {
        let now = time
        let radius: Tween
        if let r = shape.radius {
            radius = live[i].radiusTween(to: r, at: now, duration: duration)
        } else {
            if case .roundedRect(let oldWidth, _, _) = live[i].shape, case .roundedRect(let newWidth, _, _) = shape, newWidth > 0,
               rescaleEqual || live[i].shape != shape
            {
                let from = live[i].scale.value(at: now) * oldWidth / newWidth
                let start = max(now, live[i].scale.start)
                live[i].scale = Tween(from: from, to: 1, start: start, duration: duration, curve: .inOut)
            }
            live[i].shape = shape
            world.setShape(ofHeld: live[i].body, to: LevelLayout.padded(shape, settings.sizes.gap))
            radius = .constant(0)
        }
        let start = live[i].transit.map { max(now, $0.start) } ?? now
        let from = live[i].transit.map { $0.position(at: start) } ?? position(of: live[i])
        world.setKinematic(held: live[i].body, true)
        live[i].transit = glide(from: from, to: target, start: start, radius: radius, endsDynamic: true)
    }

    // MARK: - The sheet

    /// The reports under the focus that the view shows, in tree order (ascending indices).
    func reportsBelow(_ node: Int) -> [Int] {
        var out: [Int] = []
        var stack = [node]
        while let n = stack.popLast() {
            if levels.nodes[n].kind == .report {
                out.append(n)
            } else {
                stack.append(contentsOf: levels.nodes[n].children.reversed())
            }
        }
        return out.sorted()
    }

    /// Asks the finder again for the keyword counts under the focus, and measures the chips.
    func refreshTallies() {
        guard let finder, filterSheet != nil else { return }
        let tallies = finder.keywordCounts(among: reportsBelow(isStartScreen ? 0 : focus), limit: Self.maxTallies)
        filterSheet!.tallies = tallies
        filterSheet!.textWidths = tallies.map { chipTextWidth(chipText($0.keyword, $0.count)) }
    }

    /// What a chip says: the keyword and its count.
    func chipText(_ keyword: String, _ count: Int) -> String { keyword + "  " + String(count) }

    func chipTextWidth(_ text: String) -> Double {
        if let measurer { return measurer.measure(text, role: .chip, width: LineBreaks.unwrappedWidth).width }
        return Double(text.count) * 7.4
    }

    /// The sheet as the scene shows it: selected chips first, then the others the field matches,
    /// most frequent first, flowing in rows.
    func filterSheetScene() -> SceneFilterSheet? {
        guard let sheet = filterSheet else { return nil }
        let rowWidth = FilterSheetGeometry.chipRowWidth(canvasWidth: settings.canvasWidth)
        var entries: [(keyword: String, count: Int, selected: Bool, width: Double)] = []
        for k in filterKeywords {
            let i = sheet.tallies.firstIndex { $0.keyword == k }
            let count = i.map { sheet.tallies[$0].count } ?? 0
            entries.append((k, count, true, i.map { sheet.textWidths[$0] } ?? chipTextWidth(chipText(k, count))))
        }
        let query = sheet.query.trimmingSpaces
        for (i, t) in sheet.tallies.enumerated() where !filterKeywords.contains(t.keyword) {
            if !query.isEmpty, !(finder?.keyword(t.keyword, matches: query) ?? false) { continue }
            entries.append((t.keyword, t.count, false, sheet.textWidths[i]))
        }
        var placed: [(Int, Double, Double, Double)] = []
        var x = 0.0, row = 0
        let h = FilterSheetGeometry.chipHeight, gap = FilterSheetGeometry.chipSpacing
        for (i, e) in entries.enumerated() {
            let w = FilterSheetGeometry.chipWidth(textWidth: e.width, rowWidth: rowWidth)
            if x > 0 && x + w > rowWidth {
                row += 1
                x = 0
            }
            if row >= FilterSheetGeometry.maxChipRows { break }
            placed.append((i, x, Double(row) * (h + gap), w))
            x += w + gap
        }
        let rows = placed.isEmpty ? 1 : Int(((placed.last!.2) / (h + gap)).rounded()) + 1
        let g = FilterSheetGeometry(canvasWidth: settings.canvasWidth, canvasHeight: settings.canvasHeight, chrome: settings.chrome, chipRows: rows)
        let chips = placed.map { (i, x, y, w) in
            SceneChip(keyword: entries[i].keyword, count: entries[i].count, selected: entries[i].selected,
                      frame: SceneRect(x: g.chipsArea.x + x, y: g.chipsArea.y + y, width: w, height: h))
        }
        let summary = filterKeywords.isEmpty
            ? "Tap keywords to show only the reports that carry them"
            : "Reports with all of: " + filterKeywords.joined(separator: ", ")
        return SceneFilterSheet(geometry: g, query: sheet.query, chips: chips, hiddenChips: entries.count - chips.count, summary: summary)
    }

    /// A tap on the open filter sheet.
    func tapFilterSheet(at p: ScenePoint) throws(DashboardError) {
        guard let s = filterSheetScene() else { return }
        let g = s.geometry
        guard g.card.contains(p) else {
            closeOverlay()
            return
        }
        if let chip = s.chips.first(where: { $0.frame.contains(p) }) {
            try toggleKeyword(chip.keyword)
            return
        }
        if g.clear.contains(p) {
            try applyFilter([])
            closeOverlay()
            return
        }
        if g.done.contains(p) {
            closeOverlay()
            return
        }
        if g.field.contains(p) { return }
        throw .nothingAt(p, what: "the filter sheet (not a chip or a button)")
    }

    // MARK: - Tokens and the empty level

    /// The selected keywords as tokens at the right of the breadcrumb bar, each with its ×.
    func filterTokens() -> [SceneToken] {
        let chrome = settings.chrome
        guard !filterKeywords.isEmpty, chrome.breadcrumbHeight >= 20 else { return [] }
        let height = min(26, chrome.breadcrumbHeight - 8)
        let y = chrome.navigationBarHeight + (chrome.breadcrumbHeight - height) / 2
        var x = settings.canvasWidth - 12
        var tokens: [SceneToken] = []
        let leftLimit = settings.canvasWidth * 0.4
        for (k, w) in zip(filterKeywords, filterTokenWidths).reversed() {
            if x - w < leftLimit && !tokens.isEmpty { break }
            x -= w
            tokens.append(SceneToken(
                keyword: k, frame: SceneRect(x: x, y: y, width: w, height: height),
                closeFrame: SceneRect(x: x + w - 26, y: y, width: 26, height: height)))
            x -= 6
        }
        return tokens.reversed()
    }

    /// The scene's filter: keywords, total, tokens, and the empty level's message and Clear.
    func sceneFilter() -> SceneFilter? {
        guard !filterKeywords.isEmpty else { return nil }
        var f = SceneFilter(keywords: filterKeywords, matchingReports: filterMatchTotal, tokens: filterTokens())
        if !isStartScreen, levels.nodes[focus].children.isEmpty {
            f.emptyMessage = "No reports with " + filterKeywords.map { "‘\($0)’" }.joined(separator: " and ")
            let c = settings.contentRect.center
            f.clearFrame = SceneRect(x: c.x - 60, y: c.y + 40, width: 120, height: 40)
        }
        return f
    }

    /// A tap on a token's × or the empty level's Clear: true when one took it.
    func tapFilterControls(at p: ScenePoint) throws(DashboardError) -> Bool {
        guard let f = sceneFilter() else { return false }
        if let t = f.tokens.first(where: { $0.closeFrame.contains(p) }) {
            try applyFilter(filterKeywords.filter { $0 != t.keyword })
            return true
        }
        if f.tokens.contains(where: { $0.frame.contains(p) }) {
            openFilterSheet()
            return true
        }
        if let clear = f.clearFrame, clear.contains(p) {
            try applyFilter([])
            return true
        }
        return false
    }
}

extension ReportFinder {
    /// Whether a keyword matches what is typed in the filter sheet's field: by default, every word
    /// of `query` begins a word of `keyword`, ignoring case.
    public func keyword(_ keyword: String, matches query: String) -> Bool {
        let words = keyword.lowercased().split { $0 == " " || $0 == "-" || $0 == "/" }
        return query.lowercased().split(separator: " ").allSatisfy { q in words.contains { $0.hasPrefix(q) } }
    }
}

extension String {
    /// The text without spaces at either end.
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        return String(s)
    }
}
