import BubbleRender
import BubbleDashboard

/// Hand-made scenes that look like real dashboard levels, for tests, previews and the render
/// benchmark before (or without) the dashboard: a focus circle with children of both kinds packed
/// around it by a small deterministic relaxation, long and short titles (with accents), optional
/// overlays.
public enum SampleScenes {
    /// Branch colours (a calm, saturated palette).
    public static let palette: [SceneColour] = [
        SceneColour(red: 0x2F, green: 0x6F, blue: 0xDB), SceneColour(red: 0x12, green: 0x9A, blue: 0x8A),
        SceneColour(red: 0xE8, green: 0x9B, blue: 0x2C), SceneColour(red: 0x7A, green: 0x4F, blue: 0xD1),
        SceneColour(red: 0xD9, green: 0x4A, blue: 0x5B), SceneColour(red: 0x3B, green: 0xA5, blue: 0x5C),
        SceneColour(red: 0x5A, green: 0xB4, blue: 0xE0), SceneColour(red: 0xC4, green: 0x5C, blue: 0xA8),
    ]

    static let categoryTitles = [
        "Finance", "Human Resources", "Accounting", "Monthly Close", "Régions et Filiales", "IT",
        "Über-Regional Sales Analysis", "Procurement & Supply Chain", "Café Operations", "Zürich Office",
        "Annual Report of the Supervisory Board on Corporate Governance and Compliance", "Risk", "Treasury",
        "Données financières consolidées — exercice 2016", "Internationalisation", "Forschung und Entwicklung",
        "Legal", "Investor Relations", "Sustainability — ESG Disclosures", "Marketing", "Budget 2017",
        "Key Performance Indicators for the European Distribution Network", "Payroll", "Quality Assurance",
        "Customer Service", "Logistics", "Mergers & Acquisitions", "Tax", "Facilities", "Communications",
        "Product Management", "Research", "Strategy", "Compliance", "Audit", "Operations", "Security",
        "Training & Development", "Real Estate", "Partnerships",
    ]

    static let reportTitles = [
        "Q1 2016 Results", "Monthly Close — March", "Headcount by Region and Department for the Fiscal Year 2016",
        "Cash Flow Forecast", "Résumé des ventes", "Budget vs. Actual", "Customer Satisfaction Survey Results by Region and Channel",
        "Audit Findings", "Payroll Summary", "Travel Expenses Überblick", "Inventory Turnover", "Supplier Scorecard",
        "Risk Register", "Board Pack", "KPI Dashboard Export", "Energy Consumption and Carbon Footprint of All European Sites",
        "Sales Pipeline", "Accounts Receivable Ageing", "IT Incident Review", "Marketing ROI",
    ]

    static let keywords = [
        "finance", "quarterly", "EBITDA", "forecast", "budget", "Zürich", "régions", "compliance", "audit",
        "cash flow", "headcount", "売上", "KPI", "supply chain", "ESG", "payroll", "risk", "treasury",
        "consolidation", "variance", "Q1", "2016", "board", "investor relations", "données",
    ]

    /// A level: a focus circle with `categories` circles and `reports` cards around it.
    /// - Parameters:
    ///   - categories: how many category circles.
    ///   - reports: how many report cards.
    ///   - root: the first level (children in different branch colours, an uncoloured focus) or a
    ///     deep level (everything in one branch colour).
    ///   - blur: the focus blur (0...1).
    ///   - seed: varies the titles, the branch colour and the positions.
    ///   - canvasWidth: the canvas width in points.
    ///   - canvasHeight: the canvas height in points.
    ///   - overlay: an overlay over the level, if any.
    ///   - overlayOpacity: the overlay's opacity (0...1).
    ///   - breadcrumbs: the breadcrumb trail (nil: one for the kind of level).
    public static func level(
        categories: Int = 14, reports: Int = 8, root: Bool = false, blur: Double = 0, seed: Int = 0,
        canvasWidth: Double = 768, canvasHeight: Double = 1024, overlay: SceneOverlay? = nil, overlayOpacity: Double = 1,
        breadcrumbs: [String]? = nil
    ) -> Scene {
        let chrome = SceneChrome()
        let area = chrome.contentRect(canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        let cx = area.x + area.width / 2, cy = area.y + area.height / 2
        let n = categories + reports
        let branch = palette[(seed + 1) % palette.count]
        let focusTitle = root ? "All Reports" : categoryTitles[(seed + 3) % categoryTitles.count]
        // Sizes shrink with the number of children so that they fit the content area.
        let free = area.width * area.height * 0.50
        let focusR = min(area.width, area.height) * (n > 30 ? 0.13 : 0.16)
        let unit = (max(0, free - Double.pi * focusR * focusR) / Double(max(1, n)) / Double.pi).squareRoot()
        let circleR = min(72, max(34, unit * 0.98))
        let cardW = min(176, max(100, unit * 2.4)), cardH = min(74, max(50, unit * 1.05))

        struct Body { var x: Double; var y: Double; var hx: Double; var hy: Double; var circle: Bool }
        var bodies: [Body] = []
        var shapes: [SceneShape] = []
        for i in 0..<n {
            let isCard = i >= categories
            let angle = Double(i) * 2.399963 + Double(seed) * 0.7
            let dist = focusR + 40 + Double(i) * 9
            let variation = 1 + 0.22 * Double((i * 7 + seed) % 5 - 2) / 2
            if isCard {
                shapes.append(.roundedRect(width: cardW, height: cardH, cornerRadius: 12))
                bodies.append(Body(x: cx + dist * cos(angle), y: cy + dist * sin(angle), hx: cardW / 2, hy: cardH / 2, circle: false))
            } else {
                let r = circleR * variation
                shapes.append(.circle(radius: r))
                bodies.append(Body(x: cx + dist * cos(angle), y: cy + dist * sin(angle), hx: r, hy: r, circle: true))
            }
        }
        // Relaxation: push overlapping bodies apart (with a gap), out of the focus, into the area.
        let gap = 10.0
        for _ in 0..<240 {
            for i in 0..<n {
                for j in (i + 1)..<max(i + 1, n) {
                    let a = bodies[i], b = bodies[j]
                    var dx = b.x - a.x, dy = b.y - a.y
                    if dx == 0 && dy == 0 { dx = 0.01 }
                    if a.circle && b.circle {
                        let d = (dx * dx + dy * dy).squareRoot()
                        let overlap = a.hx + b.hx + gap - d
                        if overlap > 0 {
                            let ux = dx / d * overlap / 2, uy = dy / d * overlap / 2
                            bodies[i].x -= ux; bodies[i].y -= uy; bodies[j].x += ux; bodies[j].y += uy
                        }
                    } else {
                        let ox = a.hx + b.hx + gap - abs(dx), oy = a.hy + b.hy + gap - abs(dy)
                        if ox > 0 && oy > 0 {
                            if ox < oy {
                                let s = (dx < 0 ? -1.0 : 1.0) * ox / 2
                                bodies[i].x -= s; bodies[j].x += s
                            } else {
                                let s = (dy < 0 ? -1.0 : 1.0) * oy / 2
                                bodies[i].y -= s; bodies[j].y += s
                            }
                        }
                    }
                }
                // Out of the focus.
                var b = bodies[i]
                let dx = b.x - cx, dy = b.y - cy
                let d = max(0.01, (dx * dx + dy * dy).squareRoot())
                let reach = focusR + gap + (b.circle ? b.hx : (b.hx * b.hx + b.hy * b.hy).squareRoot() * 0.8)
                if d < reach {
                    b.x = cx + dx / d * reach
                    b.y = cy + dy / d * reach
                }
                b.x = min(max(b.x, area.x + b.hx + 8), area.x + area.width - b.hx - 8)
                b.y = min(max(b.y, area.y + b.hy + 8), area.y + area.height - b.hy - 8)
                bodies[i] = b
            }
        }

        var bubbles: [SceneBubble] = [
            SceneBubble(id: root ? "root" : "focus", kind: .focus, shape: .circle(radius: focusR), centre: ScenePoint(x: cx, y: cy),
                        scale: 1, opacity: 1, label: focusTitle, colour: root ? nil : branch, blur: blur)
        ]
        for i in 0..<n {
            let isCard = i >= categories
            let colour = root ? palette[i % palette.count] : branch
            let k = isCard ? i - categories : i
            let title = isCard ? reportTitles[(k + seed) % reportTitles.count] : categoryTitles[(k + seed) % categoryTitles.count]
            bubbles.append(SceneBubble(
                id: (isCard ? "report-" : "category-") + String(k), kind: isCard ? .report : .category, shape: shapes[i],
                centre: ScenePoint(x: bodies[i].x, y: bodies[i].y), scale: 1, opacity: 1, label: title,
                colour: root && i % 9 == 8 ? nil : colour, pageCount: isCard ? (k % 4 == 3 ? nil : 3 + (k * 7) % 40) : nil))
        }
        let trail = breadcrumbs ?? (root ? ["All Reports"] : ["All Reports", "Finance", "Accounting", focusTitle])
        return Scene(canvasWidth: canvasWidth, canvasHeight: canvasHeight, bubbles: bubbles, breadcrumbs: trail,
                     overlay: overlay, overlayOpacity: overlayOpacity, chrome: chrome)
    }

    /// A report for the preview overlay, with `keywordCount` keywords.
    public static func report(index: Int = 0, keywordCount: Int = 9, colour: SceneColour? = palette[0]) -> SceneReport {
        let kws = (0..<keywordCount).map { keywords[($0 + index * 3) % keywords.count] + ($0 >= keywords.count ? " \($0)" : "") }
        return SceneReport(
            id: "report-\(index)", title: reportTitles[index % reportTitles.count], author: index % 5 == 4 ? nil : "Anaïs Müller-Øster",
            pageCount: index % 6 == 5 ? nil : 4 + (index * 11) % 60, keywords: kws, colour: colour)
    }

    /// The reports of a level for the table overlay.
    public static func reports(count: Int) -> [SceneReport] {
        (0..<count).map { report(index: $0, keywordCount: 2 + $0 % 6, colour: palette[$0 % palette.count]) }
    }

    /// The representative benchmark frame: 40 circles, 20 cards, bars, blurred centre.
    public static func benchmark(canvasWidth: Double = 768, canvasHeight: Double = 1024) -> Scene {
        level(categories: 40, reports: 20, root: true, blur: 1, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
