@_spi(Testbed) import BubbleDashboard
import BubbleRender
import Foundation
import Testing
import RenderFixtures

/// Text through Pango: scripts, directions, line breaking, shortening, coverage, and text that
/// must draw safely.
@Suite struct TextTests {
    /// One bubble at the middle of the canvas, and its title label.
    static func title(_ text: String, shape: SceneShape, kind: SceneBubbleKind = .report, scale: Double = 1) -> LabelLayout {
        let scene = Scene(canvasWidth: 768, canvasHeight: 1024, bubbles: [
            SceneBubble(id: "b", kind: kind, shape: shape, centre: ScenePoint(x: 384, y: 500), scale: scale, opacity: 1,
                        label: text, colour: SampleScenes.palette[1], pageCount: kind == .report ? 3 : nil),
        ], breadcrumbs: ["Root"])
        return SceneRenderer().layoutLabels(scene).first { $0.owner == "b" && $0.role == .bubbleTitle }!
    }

    static let card = SceneShape.roundedRect(width: 188, height: 100, cornerRadius: 14)

    @Test func rightToLeftTitlesStartAtTheRight() {
        for text in ["דוח רבעוני 2016", "التقرير المالي السنوي 2016", "گزارش فروش سه‌ماهه"] {
            let label = Self.title(text, shape: Self.card)
            #expect(!label.isTruncated && label.missingGlyphs == 0, "\(text)")
            // Lines that start with a right-to-left letter (a line of digits runs left to right).
            for line in label.lines where line.text.unicodeScalars.first.map({ (0x0590...0x08FF).contains($0.value) }) ?? false {
                let edge = try! #require(line.leadingEdge)
                #expect(abs(edge - (line.x + line.width)) < 1, "\(text): first character at \(edge), line \(line.x)...\(line.x + line.width)")
            }
            // Aligned as the script expects: against the card's right edge.
            guard case .roundedRect(let x, _, let w, _, _) = label.container else { Issue.record("not a card"); continue }
            #expect(label.lines.allSatisfy { x + w - ($0.x + $0.width) < 14 }, "\(text)")
        }
        let latin = Self.title("Quarterly Results 2016", shape: Self.card)
        #expect(latin.lines.allSatisfy { abs($0.leadingEdge! - $0.x) < 1 })
    }

    /// "Q1 2016 — التقرير المالي (final)": the paragraph is left to right (it starts with Latin),
    /// the Arabic run inside it right to left.
    @Test func mixedDirectionsKeepEachRunInItsOwnDirection() {
        let label = Self.title("Q1 2016 — التقرير المالي (final)", shape: .roundedRect(width: 300, height: 80, cornerRadius: 14))
        #expect(label.lines.count == 1 && label.lines[0].text == "Q1 2016 — التقرير المالي (final)")
        #expect(abs(label.lines[0].leadingEdge! - label.lines[0].x) < 1)
    }

    @Test func scriptsAndEmojiHaveTheirGlyphs() {
        let titles = [
            "2016年第1四半期 売上報告書", "2016年度合并财务报表", "2016년 분기별 매출 보고서", "التقرير المالي السنوي",
            "گزارش‌های مالی", "דוחות כספיים", "รายงานยอดขายประจำไตรมาส", "वार्षिक वित्तीय रिपोर्ट", "Ετήσια Έκθεση",
            "Квартальный отчёт", "Báo cáo tài chính hợp nhất — Nguyễn", "👩‍💻 Engineering", "🇩🇪 🇫🇷 🇯🇵", "🏳️‍🌈 ✅ 🚀",
        ]
        for text in titles {
            let label = Self.title(text, shape: Self.card)
            #expect(label.missingCodePoints.isEmpty, "\(text): \(label.missingCodePoints.map(LabelLayout.codePointName))")
            #expect(!label.isTruncated, "\(text)")
        }
    }

    /// The check can fail: a code point no font has is reported, and drawn as a box.
    @Test func anUnassignedCodePointIsReported() {
        let label = Self.title("Unassigned \u{0378} here", shape: Self.card)
        #expect(label.missingCodePoints == [0x378])
        #expect(LabelLayout.codePointName(0x378) == "U+0378")
    }

    @Test func numbersStayWithWhatTheyCount() {
        // Wide enough for "Revenue Q1" on a line, not for "Revenue Q1 2016": "Q1 2016" moves down whole.
        for width in stride(from: 110.0, through: 200, by: 6) {
            let label = Self.title("Revenue Q1 2016 by Region and March 2017", shape: .roundedRect(width: width, height: 120, cornerRadius: 14))
            for line in label.lines {
                #expect(!line.text.hasSuffix("Q1") && !line.text.hasSuffix("March"), "width \(width): \(label.lines.map(\.text))")
            }
        }
    }

    @Test func ideographsBreakBetweenCharacters() {
        let label = Self.title("東京本社経費精算の概要と年次予算の比較報告書", shape: .roundedRect(width: 130, height: 120, cornerRadius: 14))
        #expect(label.lines.count >= 2 && !label.isTruncated)
        #expect(label.lines.map(\.text).joined() == "東京本社経費精算の概要と年次予算の比較報告書")
        #expect(label.fontSize >= RenderStyle().cardTitleFontSize * 0.85)
    }

    /// A word too long for any line is broken with a hyphen, not shrunk until it cannot be read.
    @Test func aLongWordIsHyphenatedNotShrunk() {
        let label = Self.title("Rechnungsabgrenzungspostenübersicht Geschäftsjahr 2016", shape: .roundedRect(width: 188, height: 100, cornerRadius: 14))
        #expect(!label.isTruncated)
        #expect(label.fontSize >= 11.5, "\(label.fontSize)")
        #expect(label.lines.first!.text.hasSuffix("-"))
        #expect(label.lines.map { $0.text.hasSuffix("-") ? String($0.text.dropLast()) : $0.text + " " }.joined()
                    .trimmingCharacters(in: .whitespaces) == "Rechnungsabgrenzungspostenübersicht Geschäftsjahr 2016")
    }

    /// An identifier or a number too long for its line shrinks rather than break beside a digit
    /// ("INV-2016-0" / "0001"); only at the minimum size may it break. Every word with a digit on a
    /// line is one of the title's words, in circles and on cards of many sizes.
    @Test func identifiersShrinkRatherThanBreakBesideADigit() {
        let titles = [
            "INV-2016-00001\u{00A0}–\u{2060}\u{00A0}01000", "Order 00123456789012 of 2021",
            "Ticket A1B2C3D4E5F6G7 reopened", "Rechnung 2016-000123-0045 Nachtrag",
        ]
        func words(_ text: String) -> [Substring] {
            text.split { $0 == " " || $0 == "\u{00A0}" || $0 == "\u{2060}" }
        }
        for title in titles {
            let whole = Set(words(title))
            var shapes: [(SceneShape, SceneBubbleKind, Double)] = []
            for r in stride(from: 60.0, through: 130, by: 10) { shapes.append((.circle(radius: r), .category, RenderStyle().minimumCircleTitleFontSize)) }
            for w in stride(from: 120.0, through: 200, by: 20) {
                shapes.append((.roundedRect(width: w, height: 90, cornerRadius: 14), .report, RenderStyle().minimumCardTitleFontSize))
            }
            for (shape, kind, minimum) in shapes {
                let label = Self.title(title, shape: shape, kind: kind)
                guard label.fontSize > minimum + 1e-9, !label.isTruncated else { continue }
                for line in label.lines {
                    let text = line.text.hasSuffix("-") ? String(line.text.dropLast()) : line.text
                    for word in words(text) where word.contains(where: \.isNumber) {
                        #expect(whole.contains(word), "\(shape) at \(label.fontSize) pt: \(label.lines.map(\.text))")
                    }
                }
            }
        }
    }

    /// A group's count is drawn smaller than its name, also when a long range had to shrink.
    @Test func aGroupsCountIsNeverLargerThanItsName() {
        for name in ["INV-2016-00001\u{00A0}–\u{2060}\u{00A0}01000", "Pa\u{00A0}–\u{2060}\u{00A0}Pr", "Store #101\u{00A0}–\u{2060}\u{00A0}#150"] {
            for radius in stride(from: 50.0, through: 92, by: 6) {
                let scene = Scene(canvasWidth: 768, canvasHeight: 1024, bubbles: [
                    SceneBubble(id: "g", kind: .group, shape: .circle(radius: radius), centre: ScenePoint(x: 384, y: 500), scale: 1,
                                opacity: 1, label: name + "\n1000\u{00A0}reports", colour: SampleScenes.palette[1]),
                ], breadcrumbs: ["Root"])
                let labels = SceneRenderer().layoutLabels(scene).filter { $0.owner == "g" || $0.owner == "group-count:g" }
                let title = labels.first { $0.role == .bubbleTitle }, count = labels.first { $0.role == .pageCount }
                #expect(title != nil && count != nil)
                if let title, let count, !title.isTruncated {
                    #expect(count.fontSize < title.fontSize || count.fontSize == RenderStyle().minimumCircleTitleFontSize,
                            "radius \(radius): \(title.lines.map(\.text)) at \(title.fontSize) pt, the count at \(count.fontSize) pt")
                }
            }
        }
    }

    /// Shortened only at grapheme boundaries: no emoji sequence or combining sequence is cut.
    @Test func ellipsisNeverSplitsAGrapheme() {
        let text = String(repeating: "👩‍👩‍👧‍👦🇩🇪 Ñ̃ậ ", count: 20)
        let graphemes = Set(text)
        for radius in [40.0, 55, 70] {
            let label = Self.title(text, shape: .circle(radius: radius), kind: .category)
            #expect(label.isTruncated)
            for ch in label.lines.map(\.text).joined() where ch != "…" && ch != "-" && ch != " " {
                #expect(graphemes.contains(ch), "radius \(radius): '\(ch)' is not a whole grapheme of the title")
            }
        }
    }

    /// Hostile titles draw inside their shapes, and a bidi override reorders nothing outside its label.
    @Test(arguments: [
        "Ctrl\u{01}\u{07}chars\ttab\nnewline", "Joiners \u{200D}\u{200C} and \u{2060} word joiner",
        String(repeating: "A", count: 300), String(repeating: "Very long title ", count: 19),
        "😀🎉👩‍👩‍👧‍👦🏳️‍🌈🇯🇵👍🏽", "\u{0301}\u{0302}\u{0303}\u{0304}\u{0305}\u{0306}", "\u{202E}evil override ABC",
        "\u{2067}isolate \u{05D0}\u{05D1}", "\u{202E}\u{202E}\u{202E}", "\u{202D}\u{202E}\u{2066}\u{2067}\u{2068}",
    ])
    func hostileTitlesDrawSafely(text: String) throws {
        let shapes: [(SceneShape, SceneBubbleKind)] = [
            (.circle(radius: 50), .category), (.circle(radius: 92), .category), (Self.card, .report),
            (.roundedRect(width: 116, height: 64, cornerRadius: 14), .report),
        ]
        for (shape, kind) in shapes {
            let scene = Scene(canvasWidth: 768, canvasHeight: 1024, bubbles: [
                SceneBubble(id: "b", kind: kind, shape: shape, centre: ScenePoint(x: 384, y: 500), scale: 1, opacity: 1,
                            label: text, colour: SampleScenes.palette[1], pageCount: 2),
                SceneBubble(id: "n", kind: .report, shape: Self.card, centre: ScenePoint(x: 384, y: 800), scale: 1, opacity: 1,
                            label: "Neighbour ABC", colour: SampleScenes.palette[1], pageCount: 2),
            ], breadcrumbs: [text, "Next ABC"])
            let renderer = SceneRenderer(pixelScale: 1)
            _ = try renderer.render(scene)
            _ = try renderer.svg(scene)
            let labels = renderer.layoutLabels(scene)
            for label in labels where label.role == .bubbleTitle {
                for line in label.lines {
                    #expect(line.isInside(label.container, tolerance: 0.5), "\(label.owner): '\(line.text)' spills out")
                    #expect(!line.text.unicodeScalars.contains { $0.value < 0x20 }, "a control character is drawn")
                }
            }
            // The neighbours read as written, in their own direction.
            let neighbour = labels.first { $0.owner == "n" }!
            #expect(neighbour.lines.map(\.text) == ["Neighbour ABC"])
            #expect(abs(neighbour.lines[0].leadingEdge! - neighbour.lines[0].x) < 1)
            let next = labels.first { $0.owner == "breadcrumb:1" }!
            #expect(abs(next.lines[0].leadingEdge! - next.lines[0].x) < 1)
        }
    }
}
