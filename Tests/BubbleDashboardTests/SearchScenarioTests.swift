@_spi(Testbed) import BubbleDashboard
@_spi(Testbed) import BubbleScenario
import TestSupport
import Testing

/// Scenarios that search as a user types (one event per keystroke), pick, filter, drill in, pinch
/// and clear, over the library index of the shipped datasources; asserted on the scenes.
@Suite("Search and filter scenarios")
struct SearchScenarioTests {
    /// Runs the events over `data` (a datasource under `Data/`) and returns the scene after each
    /// event, taken once the dashboard has settled (or 3 s on).
    func run(_ data: String, _ events: [String]) throws -> [Scene] {
        let scratch = try Scratch("bubbles-search-scenario")
        defer { scratch.remove() }
        var text = "{\"data\": \"\(packageRoot)/Data/\(data)\", \"events\": ["
        text += events.enumerated().map { "{\"at\": \(Double($0.offset) * 3 + 0.5), \($0.element)}" }.joined(separator: ", ")
        text += "]}"
        let scenario = try Scenario.load(try scratch.write(text, "scenario.json"))
        let (tree, finder) = try indexed(scenario, in: scratch)
        let d = try Dashboard(tree: tree, finder: finder)
        let player = ScenarioPlayer(dashboard: d, script: scenario.script)
        var scenes: [Scene] = []
        for (i, action) in scenario.script.enumerated() {
            let fired = player.advance(toStep: player.step(atTime: action.time))
            #expect(fired.allSatisfy { $0.error == nil }, "event \(i) of \(data): \(fired.compactMap(\.error))")
            d.step(count: 170)
            scenes.append(d.scene())
        }
        return scenes
    }

    func search(_ scene: Scene) -> SceneSearch? {
        if case .search(let s)? = scene.overlay { return s }
        return nil
    }

    @Test("the sample: an accented title found without accents, a pick, two keywords, drill in, pinch, clear")
    func sample() throws {
        let scenes = try run("reports.json", [
            "\"tap\": \"root\"", "\"tap\": [706, 42]",
            "\"search\": \"z\"", "\"search\": \"zu\"", "\"search\": \"zur\"", "\"search\": \"zuri\"", "\"search\": \"zurich\"",
            "\"search_pick\": 0", "\"close\": true", "\"pinch\": true", "\"top\": true",
            "\"filter\": [\"quarterly results\", \"2016\"]", "\"tap\": \"finance\"", "\"pinch\": true", "\"filter\": []",
        ])
        let typed = scenes[2...6].compactMap(search)
        #expect(typed.count == 5)
        #expect(typed.map(\.text) == ["z", "zu", "zur", "zuri", "zurich"])
        guard let zurich = typed.last, let first = zurich.results.first else {
            Issue.record("no results for 'zurich'")
            return
        }
        #expect(zurich.results.allSatisfy { $0.title.contains("Zürich") })
        #expect(first.spans.first.map { Array(first.title.unicodeScalars)[$0].map(String.init).joined() } == "Zürich", "the whole word once it is typed whole")
        // The pick: the report's level, its whole path in the breadcrumbs, the preview open.
        let picked = scenes[7]
        #expect(picked.breadcrumbs.count >= 3 && picked.breadcrumbs.first == "All Reports")
        guard case .reportPreview(let report)? = picked.overlay else {
            Issue.record("no preview after the pick")
            return
        }
        #expect(report.id == first.id)
        #expect(picked.bubble(first.id)?.kind == .report)
        // Two keywords: only matching reports, badges, tokens.
        let filtered = scenes[11]
        #expect(filtered.filter?.keywords == ["quarterly results", "2016"])
        #expect(filtered.filter?.tokens.count == 2)
        let badges = filtered.bubbles.compactMap(\.matchCount)
        #expect(!badges.isEmpty && badges.allSatisfy { $0 > 0 })
        #expect(filtered.bubbles.filter { $0.kind != .focus && $0.opacity > 0.5 }.allSatisfy { ($0.matchCount ?? 1) > 0 })
        let drilled = scenes[12]
        #expect(drilled.breadcrumbs.last == "Finance" && drilled.filter != nil)
        #expect(scenes[13].filter != nil && scenes[13].breadcrumbs.count == drilled.breadcrumbs.count - 1)
        #expect(scenes[14].filter == nil && scenes[14].bubbles.allSatisfy { $0.matchCount == nil })
    }

    @Test("CJK: a two-character query finds the titles that contain it, emphasised")
    func cjk() throws {
        let scenes = try run("international.json", ["\"tap\": \"global\"", "\"search\": \"報\"", "\"search\": \"報告\""])
        guard let s = search(scenes[2]) else {
            Issue.record("no search overlay")
            return
        }
        #expect(s.total >= 2)
        // Titles that contain the query show it emphasised (others match by their category's title).
        #expect(s.results.filter { $0.title.contains("報告") }.count >= 2)
        for r in s.results where r.title.contains("報告") {
            // The matched characters include "報告" (an index may give it as one span or two).
            let scalars: [Unicode.Scalar] = Array(r.title.unicodeScalars)
            var covered = Set<Int>()
            for span in r.spans { covered.formUnion(span) }
            var found = false
            for i in 0..<max(0, scalars.count - 1) where scalars[i] == "報" && scalars[i + 1] == "告" {
                if covered.contains(i) && covered.contains(i + 1) { found = true }
            }
            #expect(found, "\(r.title): \(r.spans)")
        }
    }

    @Test("the large library: a pick lands on a level that pans with its card in view, and inside a grouped level on the group")
    func large() throws {
        let scenes = try run("large.json", [
            "\"tap\": \"large\"", "\"search\": \"b\"", "\"search\": \"br\"", "\"search\": \"branch\"",
            "\"search\": \"branch net\"", "\"search\": \"branch netw\"", "\"search_pick\": 0",
        ])
        guard let s = search(scenes[5]), let first = s.results.first else {
            Issue.record("no results for 'branch netw'")
            return
        }
        #expect(first.title == "Branch network overview 2017")
        let picked = scenes[6]
        guard case .reportPreview(let report)? = picked.overlay else {
            Issue.record("no preview after the pick")
            return
        }
        #expect(report.id == first.id)
        #expect(picked.bubbles.first?.kind == .focus)
        // The 52 branches and their four reports are only slightly over the floor: one level that
        // pans, not groups. The pick pans it so that the card lies wholly in the bubble area.
        #expect(picked.breadcrumbs == ["Large Library", "Branches"])
        let pan = try #require(picked.pan)
        let card = try #require(picked.bubble(first.id))
        if case .roundedRect(let w, let h, _) = card.shape {
            let v = pan.viewport
            #expect(card.centre.x - w / 2 >= v.x && card.centre.x + w / 2 <= v.x + v.width, "\(card.centre)")
            #expect(card.centre.y - h / 2 >= v.y && card.centre.y + h / 2 <= v.y + v.height, "\(card.centre)")
        } else {
            Issue.record("the picked report is not a card")
        }
        // A report inside a grouped level (10 000 invoices): the pick focuses the group that holds it.
        let invoices = try run("large.json", ["\"tap\": \"large\"", "\"search\": \"INV-2016-04242\"", "\"search_pick\": 0"])
        guard case .reportPreview(let invoice)? = invoices[2].overlay else {
            Issue.record("no preview after the invoice pick")
            return
        }
        #expect(invoice.title.contains("INV-2016-04242"))
        #expect(invoices[2].breadcrumbs.count >= 3, "\(invoices[2].breadcrumbs)")
    }
}
