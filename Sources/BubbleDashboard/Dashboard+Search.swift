import BubblePhysics
import BubbleSupport

/// The search typed so far and what it found.
struct SearchSession {
    var text: String
    var total: Int
    var hits: [ReportHit]
    /// The hits as the scene shows them (title, category path, pages), made once per text.
    var rows: [SceneSearchResult]

    /// A session showing `hits` of the reports of `source`.
    init(text: String, total: Int, hits: [ReportHit], source: DashboardTree) {
        self.text = text
        self.total = total
        self.hits = hits
        rows = hits.map { hit in
            let r = hit.report
            let path = source.path(to: r).dropFirst().dropLast().map { source.nodes[$0].title }
            return SceneSearchResult(
                id: source.nodes[r].id, title: source.nodes[r].title, path: path, pageCount: source.nodes[r].pageCount,
                spans: hit.titleSpans, colour: source.nodes[r].colour)
        }
    }
}

// Search (the magnifier): the field, results as the text changes, and a pick that takes the user
// to the report.
extension Dashboard {
    /// The longest text the search or filter field takes, in characters.
    public static let maxFieldLength = 256

    /// How long a picked report's ring takes to fade (s).
    static let markDuration = 1.1
    /// How long after a pick's level has landed its preview opens (s).
    static let previewDelay = 0.8

    /// The layout of the search overlay for the results shown.
    public func searchGeometry(rows: Int) -> SearchPanelGeometry {
        SearchPanelGeometry(canvasWidth: settings.canvasWidth, canvasHeight: settings.canvasHeight, chrome: settings.chrome, rows: rows)
    }

    /// The search results shown (empty when no search is open).
    public var searchResults: [ReportHit] { searchSession?.hits ?? [] }

    /// Whether the search overlay is open (not fading out).
    public var isSearching: Bool {
        if let o = overlay, o.content == .search, !o.closing { return true }
        return false
    }

    func checkedText(_ text: String, field: String) throws(DashboardError) -> String {
        if text.count > Self.maxFieldLength {
            throw .invalidText(field: field, reason: "longer than \(Self.maxFieldLength) characters (\(text.count))")
        }
        if let c = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            throw .invalidText(field: field, reason: "control character U+\(Hex.string(UInt64(c.value), digits: 4)) in the text")
        }
        return text
    }

    func openSearch() {
        guard finder != nil else {
            showNotice("Search needs an index")
            return
        }
        if isSearching { return }
        endDrag()
        searchSession = SearchSession(text: "", total: 0, hits: [], source: levels.source)
        openOverlay(.search)
    }

    func setSearchText(_ text: String) throws(DashboardError) {
        guard let finder else { throw .searchUnavailable }
        let t = try checkedText(text, field: "search")
        if !isSearching { openSearch() }
        if searchSession?.text == t { return }
        let answer = t.unicodeScalars.allSatisfy({ $0.properties.isWhitespace })
            ? ReportSearchAnswer(total: 0, hits: [])
            : finder.search(t, limit: SearchPanelGeometry.maxResults)
        let source = levels.source.nodes
        var hits = answer.hits.filter { $0.report > 0 && $0.report < source.count && source[$0.report].kind == .report }
        if hits.count > SearchPanelGeometry.maxResults { hits.removeLast(hits.count - SearchPanelGeometry.maxResults) }
        searchSession = SearchSession(text: t, total: max(answer.total, hits.count), hits: hits, source: levels.source)
        // New results start at the top.
        resetTable(searchGeometry(rows: hits.count).rowsArea, flashIndicator: false)
    }

    func pickSearchResult(_ row: Int) throws(DashboardError) {
        guard isSearching, let session = searchSession else { throw .noSearchOpen }
        guard row >= 0, row < session.hits.count else { throw .noSuchResult(row, count: session.hits.count) }
        try reveal(session.hits[row].report)
    }

    /// A tap on the open search overlay.
    func tapSearch(at p: ScenePoint) throws(DashboardError) {
        let g = searchGeometry(rows: searchSession?.hits.count ?? 0)
        if g.cancel.contains(p) {
            closeOverlay()
            return
        }
        if g.bar.contains(p) { return }
        guard g.card.contains(p) else {
            closeOverlay()
            return
        }
        guard g.rowsArea.viewportContains(p) else { throw .nothingAt(p, what: "the search results' total") }
        if table.phase != .idle {
            stopTable()
            return
        }
        guard let session = searchSession, let r = g.rowsArea.row(at: p, scroll: table.offset), r < session.hits.count else {
            throw .nothingAt(p, what: "below the last search result")
        }
        try reveal(session.hits[r].report)
    }

    /// Takes the user to a report: the search closes, the report's level (the group holding it, on
    /// a large level) comes in as the focus in one transition, its card is marked, and its preview
    /// opens once it has landed. A report hidden by the filter clears the filter first.
    func reveal(_ report: Int) throws(DashboardError) {
        endDrag()
        closeOverlay()
        if let counts = levels.matchCounts, counts[report] == 0 {
            try switchView(to: [], matches: nil)
        }
        // Lay out each level on the way down, so the groups that hold the report exist.
        var path = Array(levels.path(to: report).dropLast())
        var i = 0
        while i < path.count {
            _ = try layout(of: path[i])
            path = Array(levels.path(to: report).dropLast())
            i += 1
        }
        guard let target = path.last else { return }
        let now = time
        var lands = now
        if isStartScreen || focusPath != path {
            isStartScreen = false
            let delay = try jump(to: path)
            let k = Double(layouts[target]?.children.firstIndex(of: report) ?? 0)
            lands = now + delay + min(k * settings.motion.appearStagger, settings.motion.appearStaggerTotal) + settings.motion.appearDuration
        }
        panToShow(report)
        marks.removeAll { $0.node == report }
        marks.append((report, Tween(from: 1, to: 0, start: lands, duration: Self.markDuration, curve: .inOut)))
        pendingPreview = (report, lands + Self.previewDelay)
    }

    // MARK: - Notice

    /// Shows a short message over the canvas for about two seconds.
    func showNotice(_ text: String) {
        notice = (text, Tween(from: 0, to: 1, start: time, duration: 0.2, curve: .out))
    }

    /// The notice's opacity at `t`: in over 0.2 s, held 1.6 s, out over 0.3 s.
    func noticeOpacity(at t: Double) -> Double {
        guard let n = notice else { return 0 }
        let since = t - n.opacity.start
        if since < 0.2 { return clamp01(n.opacity.value(at: t)) }
        if since < 1.8 { return 1 }
        return clamp01(1 - (since - 1.8) / 0.3)
    }

    // MARK: - Per step and hashing

    /// Per step: opens a pending preview, drops finished marks, notices and closed sessions.
    func advanceFinding(at now: Double) {
        if let p = pendingPreview, now >= p.at {
            pendingPreview = nil
            if liveIndex(of: p.node) != nil && (overlay == nil || overlay!.closing) { openOverlay(.preview(p.node)) }
        }
        marks.removeAll { $0.ring.isFinished(at: now) && $0.ring.value(at: now) == 0 }
        if let n = notice, now - n.opacity.start >= 2.1 { notice = nil }
        if overlay?.content != .search { searchSession = nil }
        if overlay?.content != .filterSheet { filterSheet = nil }
    }

    /// The finding state in the state hash: search text and results, filter, sheet, marks.
    func combineFinding(into h: inout FNV1a64) {
        if let s = searchSession {
            h.combine(bytes: Array(s.text.utf8))
            h.combine(UInt64(s.total))
            for hit in s.hits { h.combine(UInt64(hit.report)) }
        }
        for k in filterKeywords {
            h.combine(bytes: Array(k.utf8))
            h.combine(byte: 0)
        }
        if !filterKeywords.isEmpty { h.combine(UInt64(filterMatchTotal)) }
        if let sheet = filterSheet {
            h.combine(bytes: Array(sheet.query.utf8))
            h.combine(UInt64(sheet.tallies.count))
        }
        for m in marks {
            h.combine(UInt64(m.node))
            h.combine(m.ring.value(at: time))
        }
        if let p = pendingPreview {
            h.combine(UInt64(p.node))
            h.combine(p.at)
        }
        if let n = notice { h.combine(noticeOpacity(at: time)); h.combine(bytes: Array(n.text.utf8)) }
    }

    /// The ring of a marked report at `t` (0 when not marked).
    func marked(_ node: Int, at t: Double) -> Double {
        guard !marks.isEmpty, let m = marks.first(where: { $0.node == node }) else { return 0 }
        return clamp01(m.ring.value(at: t))
    }
}
