@_spi(Testbed) import BubbleDashboard
import Testing

/// A finder over a tree's own titles and keywords, without an index: titles match when they
/// contain every word typed (ignoring case), best first by where the first word starts.
final class TitleFinder: ReportFinder {
    let tree: DashboardTree
    init(_ tree: DashboardTree) { self.tree = tree }

    func search(_ text: String, limit: Int) -> ReportSearchAnswer {
        let words = text.lowercased().split(separator: " ").map(String.init)
        guard !words.isEmpty else { return ReportSearchAnswer(total: 0, hits: []) }
        var hits: [(Int, ReportHit)] = []
        for (i, n) in tree.nodes.enumerated() where n.kind == .report {
            let scalars = Array(n.title.lowercased().unicodeScalars)
            var spans: [Range<Int>] = []
            var first = Int.max
            for w in words {
                let ws = Array(w.unicodeScalars)
                guard let at = (0...max(0, scalars.count - ws.count)).first(where: { scalars.count >= ws.count && Array(scalars[$0..<$0 + ws.count]) == ws }) else {
                    spans = []
                    break
                }
                first = min(first, at)
                spans.append(at..<at + ws.count)
            }
            if spans.count == words.count { hits.append((first, ReportHit(report: i, titleSpans: spans.sorted { $0.lowerBound < $1.lowerBound }))) }
        }
        let sorted = hits.sorted { ($0.0, $0.1.report) < ($1.0, $1.1.report) }.map(\.1)
        return ReportSearchAnswer(total: sorted.count, hits: Array(sorted.prefix(limit)))
    }

    func keywordCounts(among reports: [Int], limit: Int) -> [KeywordTally] {
        var counts: [String: Int] = [:]
        for r in reports { for k in Set(tree.nodes[r].keywords.map { $0.lowercased() }) { counts[k, default: 0] += 1 } }
        return counts.map { KeywordTally(keyword: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.keyword < $1.keyword }.prefix(limit).map { $0 }
    }

    func reports(carrying keywords: [String]) -> [Int] {
        let wanted = keywords.map { $0.lowercased() }
        return tree.nodes.indices.filter { i in
            tree.nodes[i].kind == .report && wanted.allSatisfy { w in tree.nodes[i].keywords.contains { $0.lowercased() == w } }
        }
    }

    func knownKeyword(_ keyword: String) -> String? {
        let k = keyword.lowercased()
        return tree.nodes.contains { $0.keywords.contains { $0.lowercased() == k } } ? k : nil
    }

    func keyword(_ keyword: String, matches query: String) -> Bool { keyword.lowercased().contains(query.lowercased()) }
}

/// A library with one category of 400 reports (grouped on screen), keyworded by parity and tens.
func keywordedTree() -> DashboardTree {
    var nodes = [DashboardNode(id: "root", title: "All Reports", kind: .category, colour: nil, children: [1, 2], reportCount: 0)]
    nodes.append(DashboardNode(id: "ledgers", title: "Ledgers", kind: .category, colour: SceneColour(red: 200, green: 80, blue: 40), children: [], reportCount: 0))
    nodes.append(DashboardNode(id: "small", title: "Small", kind: .category, colour: SceneColour(red: 30, green: 100, blue: 200), children: [], reportCount: 0))
    var big: [Int] = [], small: [Int] = []
    for r in 0..<400 {
        big.append(nodes.count)
        nodes.append(DashboardNode(
            id: "ledger-\(r)", title: "Ledger \(r + 1) for cost centre \(1000 + r)", kind: .report, colour: nil, children: [], reportCount: 1,
            pageCount: 1 + r % 5, keywords: [r % 2 == 0 ? "even" : "odd", "tens-\(r / 10)", "ledger"]))
    }
    for r in 0..<6 {
        small.append(nodes.count)
        nodes.append(DashboardNode(
            id: "small-\(r)", title: "Memo \(r + 1)", kind: .report, colour: nil, children: [], reportCount: 1,
            keywords: [r % 2 == 0 ? "even" : "odd", "memo"]))
    }
    nodes[1].children = big
    nodes[1].reportCount = 400
    nodes[2].children = small
    nodes[2].reportCount = 6
    nodes[0].reportCount = 406
    return try! DashboardTree(nodes: nodes)
}

@Suite("Search and filter")
struct SearchFilterTests {
    func dashboard(_ tree: DashboardTree = keywordedTree()) throws -> Dashboard {
        let d = try Dashboard(tree: tree, finder: TitleFinder(tree))
        try d.send(.tapBubble("root"))
        d.settle()
        return d
    }

    @Test("results follow every keystroke, with spans, a total and an empty message")
    func typing() throws {
        let d = try dashboard()
        try d.send(.tap(at: d.settings.chrome.searchIconCentre(canvasWidth: d.settings.canvasWidth)))
        #expect(d.isSearching)
        var totals: [Int] = []
        for text in ["l", "le", "led", "ledger 1", "ledger 12"] {
            try d.send(.search(text))
            d.step()
            guard case .search(let s)? = d.scene().overlay else { Issue.record("no search overlay"); return }
            #expect(s.text == text)
            totals.append(s.total)
            #expect(s.results.count == min(s.total, SearchPanelGeometry.maxResults))
            if let first = s.results.first {
                #expect(first.path == ["Ledgers"])
                #expect(!first.spans.isEmpty)
            }
        }
        #expect(totals[0] >= totals[3] && totals[3] >= totals[4] && totals[4] > 0)
        try d.send(.search("zzz"))
        guard case .search(let none)? = d.scene().overlay else { Issue.record("no search overlay"); return }
        #expect(none.results.isEmpty && none.message == "No reports match ‘zzz’")
        // Cancel closes it and leaves the level as it was.
        let path = d.focusPath
        let g = d.searchGeometry(rows: 0)
        try d.send(.tap(at: ScenePoint(x: g.cancel.x + 10, y: g.cancel.y + 10)))
        d.settle()
        #expect(d.scene().overlay == nil && d.focusPath == path)
        // A pinch while searching closes the search and stays on the level.
        try d.send(.tapBubble("ledgers"))
        d.settle()
        let inside = d.focusPath
        try d.send(.search("memo"))
        try d.send(.pinch)
        d.settle()
        #expect(d.scene().overlay == nil && d.focusPath == inside)
    }

    @Test("a pick goes to the report's group in one transition, marks it, opens its preview; a pinch goes back one level")
    func pickInsideAGroup() throws {
        let d = try dashboard()
        try d.send(.search("ledger 237 "))
        guard case .search(let s)? = d.scene().overlay, let row = s.results.firstIndex(where: { $0.id == "ledger-236" }) else {
            Issue.record("no result for ledger 237")
            return
        }
        try d.send(.searchPick(row))
        let crumbs = d.scene().breadcrumbs
        #expect(crumbs.first == "All Reports" && crumbs.count >= 3 && crumbs[1] == "Ledgers")
        let focus = d.levels.nodes[d.focus]
        #expect(focus.kind == .group && focus.children.contains(d.levels.index(of: "ledger-236")!))
        var sawRing = false, sawPreview = false
        for _ in 0..<240 {
            d.step()
            let scene = d.scene()
            if (scene.bubble("ledger-236")?.marked ?? 0) > 0.5 { sawRing = true }
            if case .reportPreview(let r)? = scene.overlay, r.id == "ledger-236" { sawPreview = true }
        }
        #expect(sawRing && sawPreview)
        try d.send(.closeOverlay)
        d.settle()
        #expect(d.levels.nodes[d.focus].kind == .group)
        let depth = d.focusPath.count
        try d.send(.pinch)
        d.settle()
        #expect(d.focusPath.count == depth - 1)
    }

    @Test("refused events change nothing")
    func refusals() throws {
        let d = try dashboard()
        let hash = d.stateHash
        #expect(throws: DashboardError.noSearchOpen) { try d.send(.searchPick(0)) }
        #expect(throws: DashboardError.unknownKeyword("nope")) { try d.send(.filter(["even", "nope"])) }
        #expect(throws: DashboardError.noFilterSheetOpen) { try d.send(.filterQuery("ev")) }
        #expect(throws: DashboardError.self) { try d.send(.search("a\u{7}b")) }
        #expect(throws: DashboardError.self) { try d.send(.search(String(repeating: "x", count: 300))) }
        #expect(d.stateHash == hash)
        try d.send(.search("memo"))
        let open = d.stateHash
        #expect(throws: DashboardError.noSuchResult(6, count: 6)) { try d.send(.searchPick(6)) }
        #expect(d.stateHash == open)
        let plain = try Dashboard(tree: keywordedTree())
        #expect(throws: DashboardError.searchUnavailable) { try plain.send(.search("x")) }
        try plain.send(.openSearch)
        #expect(plain.scene().notice?.text == "Search needs an index")
    }

    @Test("a filter shows only matching reports, with badges, through drill-in, pinch and top; clearing brings every bubble back to its place")
    func filtering() throws {
        let d = try dashboard()
        let before = Dictionary(uniqueKeysWithValues: d.scene().bubbles.map { ($0.id, $0.centre) })
        try d.send(.filter(["odd", "tens-3"]))
        // The level re-packs without a jump: no bubble moves more than a glide's fastest step.
        var previous = d.scene()
        for _ in 0..<180 {
            d.step()
            let now = d.scene()
            let (jump, id) = largestJump(previous, now)
            #expect(jump < 40, "\(id) jumped \(jump) pt")
            previous = now
        }
        d.settle()
        var scene = d.scene()
        #expect(scene.filter?.keywords == ["odd", "tens-3"] && scene.filter?.matchingReports == 5)
        #expect(scene.filter?.tokens.map(\.keyword) == ["odd", "tens-3"])
        #expect(scene.bubble("ledgers")?.matchCount == 5)
        #expect(scene.bubble("small") == nil)
        #expect(d.maxOverlap() < 0.5)
        try d.send(.tapBubble("ledgers"))
        d.settle()
        scene = d.scene()
        let reports = scene.bubbles.filter { $0.kind == .report }.map(\.id)
        #expect(reports == ["ledger-31", "ledger-33", "ledger-35", "ledger-37", "ledger-39"])
        try d.send(.showReports)
        d.settle()
        guard case .reportsTable(_, let rows, _)? = d.scene().overlay else { Issue.record("no table"); return }
        #expect(rows.map(\.id) == reports && d.scene().filter != nil)
        try d.send(.closeOverlay)
        try d.send(.pinch)
        d.settle()
        #expect(d.scene().bubble("small") == nil && d.scene().filter != nil)
        // A token's × removes its keyword; the sheet's chips toggle.
        guard let token = d.scene().filter?.tokens.first(where: { $0.keyword == "tens-3" }) else { Issue.record("no token"); return }
        try d.send(.tap(at: ScenePoint(x: token.closeFrame.x + 13, y: token.closeFrame.y + 10)))
        d.settle()
        #expect(d.filterKeywords == ["odd"])
        #expect(d.scene().bubble("small")?.matchCount == 3)
        try d.send(.filter([]))
        d.settle()
        let after = Dictionary(uniqueKeysWithValues: d.scene().bubbles.map { ($0.id, $0.centre) })
        #expect(after == before)
        #expect(d.scene().filter == nil)
    }

    @Test("the sheet lists the focus's keywords by count, narrows by its field, and a chip toggles; an empty level offers Clear")
    func sheetAndEmptyLevel() throws {
        let d = try dashboard()
        try d.send(.tapBubble("small"))
        d.settle()
        try d.send(.openFilter)
        guard case .filterSheet(let sheet)? = d.scene().overlay else { Issue.record("no sheet"); return }
        #expect(sheet.chips.map(\.keyword) == ["memo", "even", "odd"])
        #expect(sheet.chips.map(\.count) == [6, 3, 3])
        try d.send(.filterQuery("ev"))
        guard case .filterSheet(let narrowed)? = d.scene().overlay, let chip = narrowed.chips.first else { Issue.record("no sheet"); return }
        #expect(narrowed.chips.map(\.keyword) == ["even"])
        try d.send(.tap(at: ScenePoint(x: chip.frame.x + 5, y: chip.frame.y + 5)))
        #expect(d.filterKeywords == ["even"])
        guard case .filterSheet(let selected)? = d.scene().overlay else { Issue.record("no sheet"); return }
        #expect(selected.chips.first?.selected == true && selected.summary == "Reports with all of: even")
        try d.send(.tap(at: ScenePoint(x: selected.geometry.done.x + 10, y: selected.geometry.done.y + 10)))
        d.settle()
        #expect(d.scene().overlay == nil)
        #expect(d.scene().bubbles.filter { $0.kind == .report }.count == 3)
        // Under a filter no report of this level carries, the level says so and offers Clear.
        try d.send(.filter(["tens-0"]))
        d.settle()
        guard let f = d.scene().filter, f.clearFrame != nil else { Issue.record("no empty message"); return }
        #expect(f.emptyMessage == "No reports with ‘tens-0’")
        // A pinch from the hidden level leaves one focus: the parent's.
        try d.send(.pinch)
        d.settle()
        #expect(d.scene().bubbles.filter { $0.kind == .focus }.map(\.id) == ["root"])
        try d.send(.tapBubble("ledgers"))
        d.settle()
        try d.send(.filter(["memo"]))
        d.settle()
        guard let f2 = d.scene().filter, let clear = f2.clearFrame else { Issue.record("no empty message"); return }
        #expect(f.emptyMessage != nil)
        try d.send(.tap(at: ScenePoint(x: clear.x + 10, y: clear.y + 10)))
        d.settle()
        // Unfiltered, the 400 ledgers come back as groups (by their first field, "Ledger 1 – 100" …).
        #expect(d.scene().filter == nil && d.scene().bubbles.filter { $0.kind == .group }.count >= 4)
    }

    @Test("a long session of filters keeps a bounded number of views, and the unfiltered one comes back as it was")
    func boundedViews() throws {
        let d = try dashboard()
        let before = d.scene().bubbles.map(\.centre)
        for t in 0..<20 {
            try d.send(.filter(["tens-\(t)"]))
            d.step(count: 5)
        }
        #expect(d.levels.keptViewKeys.count <= LevelModel.keptViews + 1)
        try d.send(.filter([]))
        d.settle()
        #expect(d.scene().bubbles.map(\.centre) == before)
    }

    @Test("search and filter are deterministic: the same events give the same hashes")
    func determinism() throws {
        func run() throws -> [UInt64] {
            let d = try dashboard()
            var hashes: [UInt64] = []
            for e: DashboardEvent in [.search("ledger 4"), .searchPick(2), .filter(["even"]), .pinch, .filter(["even", "tens-1"]), .top, .filter([])] {
                try d.send(e)
                d.step(count: 40)
                hashes.append(d.stateHash)
            }
            return hashes
        }
        #expect(try run() == run())
    }
}
