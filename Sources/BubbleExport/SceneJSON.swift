@_spi(Testbed) import BubbleDashboard
import ReportLibrary

/// A frame's scene as JSON (`frame-NNNNN.json`), for other renderers and for checking.
///
/// ```json
/// {"frame": 42, "time": 0.7, "canvas": {"width": 768, "height": 1024},
///  "chrome": {"navigation_bar": 64, "breadcrumbs": 36, "bottom_bar": 112},
///  "breadcrumbs": ["All Reports", "Finance"],
///  "bubbles": [
///   {"id": "finance", "kind": "focus", "shape": "circle", "x": 384, "y": 456, "r": 96, "scale": 1, "opacity": 1, "blur": 1, "label": "Finance", "colour": "#1E6FD9"},
///   {"id": "q1-2016", "kind": "report", "shape": "rounded_rect", "x": 300.5, "y": 610.25, "w": 148, "h": 72, "corner": 14, "scale": 0.97, "opacity": 1, "blur": 0, "label": "Q1 2016 …", "colour": "#1E6FD9", "pages": 2}],
///  "overlay": null}
/// ```
///
/// Bubbles are back to front (the order they are drawn). `x`, `y` are the centre in canvas points
/// (origin top-left, y down); `r` (circles) or `w`, `h`, `corner` (report cards) are unscaled: the
/// drawn size is times `scale`. `colour` is `#RRGGBB` or null; `pages` only when known. `kind` is
/// `focus`, `category`, `report` or `group` (a virtual category standing for a run of a large
/// level's children, with `count`: how many). `caption`, when the level's children share words that
/// their labels leave out, says them once ("Month-End Close Pack — …"). The overlay
/// is null or `{"type": "report_preview", "opacity": o, "report": {...}, "pages": [{"page": n, "frame":
/// [x, y, w, h]}], "page": n, "page_count": n, "page_label": l, "zoom": z, "swipe": pt,
/// "page_indicator": a, "unavailable": why}` (the viewer's pages in view, 1-based, their frames in
/// points; the current page and its label or null; the zoom, 1 at fit width; how far a swipe moved
/// the sheet right; the page indicator's opacity; why the document cannot be drawn, or null) or
/// `{"type": "reports_table", "opacity": o, "title": t, "rows": n, "scroll": pt, "first_visible_row": i,
/// "last_visible_row": j, "scroll_indicator": a, "reports": [{...}]}` with reports as
/// `{"id", "title", "author", "pages", "keywords", "colour"}`: `scroll` is the offset in points
/// (outside `0...max` while rubber-banding), the visible rows are the first and last (0-based, at
/// least partly in view; null without rows) as `ReportsTableGeometry` lays the table out, and
/// `scroll_indicator` is the indicator's opacity.
///
/// Search and filter (the magnifier and the Filter button): an overlay `{"type": "search",
/// "opacity", "text", "total", "rows", "scroll", "first_visible_row", "last_visible_row",
/// "scroll_indicator", "message", "results": [{"id", "title", "path", "pages", "spans"}]}` (`path`:
/// the category titles under the root; `spans`: `[start, end]` of the title's matched parts in
/// Unicode scalars; `message`: "No reports match …" or null) laid out by `SearchPanelGeometry`, or
/// `{"type": "filter", "opacity", "query", "summary", "hidden_keywords", "keywords": [{"keyword",
/// "count", "selected", "frame"}]}` (frames `[x, y, w, h]` in points). The top-level `filter` is
/// null or `{"keywords", "matching_reports", "tokens": [{"keyword", "frame", "close"}],
/// "empty_message"}`; a bubble under a filter has `match_count`, and a report `marked` (0–1, the
/// ring of a report a search took the user to). `notice`, when shown, is `{"text", "opacity"}`.
/// `pan`, only for a level larger than the bubble area (which pans), is `{"extent": [x, y, w, h],
/// "viewport": [x, y, w, h], "indicator": a}`: the level's extent as drawn now and the bubble area
/// showing it, in points, and the scroll indicators' opacity.
/// Keys are always in this order and
/// numbers are exact (shortest round-trip form), so equal scenes give equal bytes.
public enum SceneJSON {
    /// The scene of frame `frame` at `time` seconds as one JSON document (UTF-8).
    public static func encode(_ scene: Scene, frame: Int, time: Double) -> [UInt8] {
        let n = JSONLiteral.number, s = { JSONLiteral.string($0) }
        var out = "{\"frame\": \(frame), \"time\": \(n(time)), "
        out += "\"canvas\": {\"width\": \(n(scene.canvasWidth)), \"height\": \(n(scene.canvasHeight))},\n"
        out += " \"chrome\": {\"navigation_bar\": \(n(scene.chrome.navigationBarHeight)), "
            + "\"breadcrumbs\": \(n(scene.chrome.breadcrumbHeight)), \"bottom_bar\": \(n(scene.chrome.bottomBarHeight))},\n"
        out += " \"breadcrumbs\": \(JSONText.strings(scene.breadcrumbs)),\n"
        if let caption = scene.caption { out += " \"caption\": \(s(caption)),\n" }
        out += " \"bubbles\": ["
        for (i, b) in scene.bubbles.enumerated() {
            out += i == 0 ? "\n  " : ",\n  "
            out += "{\"id\": \(s(b.id)), \"kind\": \(s(b.kind.rawValue)), "
            switch b.shape {
            case .circle(let r):
                out += "\"shape\": \"circle\", \"x\": \(n(b.centre.x)), \"y\": \(n(b.centre.y)), \"r\": \(n(r)), "
            case .roundedRect(let w, let h, let c):
                out += "\"shape\": \"rounded_rect\", \"x\": \(n(b.centre.x)), \"y\": \(n(b.centre.y)), "
                    + "\"w\": \(n(w)), \"h\": \(n(h)), \"corner\": \(n(c)), "
            }
            out += "\"scale\": \(n(b.scale)), \"opacity\": \(n(b.opacity)), \"blur\": \(n(b.blur)), "
            out += "\"label\": \(s(b.label)), \"colour\": \(colour(b.colour))"
            if let p = b.pageCount { out += ", \"pages\": \(p)" }
            if let c = b.count { out += ", \"count\": \(c)" }
            if let m = b.matchCount { out += ", \"match_count\": \(m)" }
            if b.kind == .report || b.marked > 0 { out += ", \"marked\": \(n(b.marked))" }
            out += "}"
        }
        out += "],\n \"overlay\": "
        switch scene.overlay {
        case nil:
            out += "null"
        case .reportPreview(let r)?:
            out += "{\"type\": \"report_preview\", \"opacity\": \(n(scene.overlayOpacity)), \"report\": \(report(r))"
            if let p = scene.preview {
                out += ", \"pages\": [" + p.pages.map { "{\"page\": \($0.page), \"frame\": \(rect($0.frame))}" }.joined(separator: ", ") + "]"
                out += ", \"page\": \(p.page), \"page_count\": \(p.pageCount), \"page_label\": \(p.pageLabel.map { s($0) } ?? "null")"
                out += ", \"zoom\": \(n(p.zoom)), \"swipe\": \(n(p.swipe)), \"page_indicator\": \(n(p.indicatorOpacity))"
                out += ", \"unavailable\": \(p.unavailable.map { s($0) } ?? "null")"
            }
            out += "}"
        case .reportsTable(let title, let reports, let scroll)?:
            let g = ReportsTableGeometry(canvasWidth: scene.canvasWidth, canvasHeight: scene.canvasHeight, chrome: scene.chrome,
                                         rows: reports.count)
            let visible = g.visibleRows(scroll: scroll.offset)
            out += "{\"type\": \"reports_table\", \"opacity\": \(n(scene.overlayOpacity)), \"title\": \(s(title)), "
            out += "\"rows\": \(reports.count), \"scroll\": \(n(scroll.offset)), "
            out += "\"first_visible_row\": \(visible.map { String($0.lowerBound) } ?? "null"), "
            out += "\"last_visible_row\": \(visible.map { String($0.upperBound) } ?? "null"), "
            out += "\"scroll_indicator\": \(n(scroll.indicatorOpacity)), \"reports\": ["
            out += reports.map { "\n  " + report($0) }.joined(separator: ",")
            out += "]}"
        case .search(let search)?:
            let g = SearchPanelGeometry(canvasWidth: scene.canvasWidth, canvasHeight: scene.canvasHeight, chrome: scene.chrome,
                                        rows: search.results.count)
            let visible = g.rowsArea.visibleRows(scroll: search.scroll.offset)
            out += "{\"type\": \"search\", \"opacity\": \(n(scene.overlayOpacity)), \"text\": \(s(search.text)), "
            out += "\"total\": \(search.total), \"rows\": \(search.results.count), \"scroll\": \(n(search.scroll.offset)), "
            out += "\"first_visible_row\": \(visible.map { String($0.lowerBound) } ?? "null"), "
            out += "\"last_visible_row\": \(visible.map { String($0.upperBound) } ?? "null"), "
            out += "\"scroll_indicator\": \(n(search.scroll.indicatorOpacity)), "
            out += "\"message\": \(search.message.map { s($0) } ?? "null"), \"results\": ["
            out += search.results.map { r in
                "\n  {\"id\": \(s(r.id)), \"title\": \(s(r.title)), \"path\": \(JSONText.strings(r.path)), "
                    + "\"pages\": \(r.pageCount.map(String.init) ?? "null"), "
                    + "\"spans\": [\(r.spans.map { "[\($0.lowerBound), \($0.upperBound)]" }.joined(separator: ", "))]}"
            }.joined(separator: ",")
            out += "]}"
        case .filterSheet(let sheet)?:
            out += "{\"type\": \"filter\", \"opacity\": \(n(scene.overlayOpacity)), \"query\": \(s(sheet.query)), "
            out += "\"summary\": \(s(sheet.summary)), \"hidden_keywords\": \(sheet.hiddenChips), \"keywords\": ["
            out += sheet.chips.map { c in
                "\n  {\"keyword\": \(s(c.keyword)), \"count\": \(c.count), \"selected\": \(c.selected), "
                    + "\"frame\": \(rect(c.frame))}"
            }.joined(separator: ",")
            out += "]}"
        }
        out += ",\n \"filter\": "
        if let f = scene.filter {
            out += "{\"keywords\": \(JSONText.strings(f.keywords)), \"matching_reports\": \(f.matchingReports), "
            out += "\"tokens\": [" + f.tokens.map { "{\"keyword\": \(s($0.keyword)), \"frame\": \(rect($0.frame)), \"close\": \(rect($0.closeFrame))}" }
                .joined(separator: ", ") + "], "
            out += "\"empty_message\": \(f.emptyMessage.map { s($0) } ?? "null")}"
        } else {
            out += "null"
        }
        if let notice = scene.notice { out += ",\n \"notice\": {\"text\": \(s(notice.text)), \"opacity\": \(n(notice.opacity))}" }
        if let pan = scene.pan {
            out += ",\n \"pan\": {\"extent\": \(rect(pan.extent)), \"viewport\": \(rect(pan.viewport)), \"indicator\": \(n(pan.indicatorOpacity))}"
        }
        out += "}\n"
        return Array(out.utf8)
    }

    static func colour(_ c: SceneColour?) -> String {
        guard let c else { return "null" }
        func h(_ v: UInt8) -> String { Hex.string(v, digits: 2, uppercase: true) }
        return "\"#" + h(c.red) + h(c.green) + h(c.blue) + "\""
    }

    static func rect(_ r: SceneRect) -> String {
        let n = JSONLiteral.number
        return "[\(n(r.x)), \(n(r.y)), \(n(r.width)), \(n(r.height))]"
    }

    static func report(_ r: SceneReport) -> String {
        "{\"id\": \(JSONLiteral.string(r.id)), \"title\": \(JSONLiteral.string(r.title)), "
            + "\"author\": \(r.author.map { JSONLiteral.string($0) } ?? "null"), \"pages\": \(r.pageCount.map(String.init) ?? "null"), "
            + "\"keywords\": \(JSONText.strings(r.keywords)), \"colour\": \(colour(r.colour))}"
    }
}
