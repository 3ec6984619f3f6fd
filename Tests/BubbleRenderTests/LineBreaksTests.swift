@_spi(Testbed) import BubbleDashboard
import BubbleRender
import Foundation
import TestSupport
import Testing

/// `PangoTextMeasurer.lineBreaks`: wrapping a title from its one-line layout gives exactly what
/// laying it out again at that width gives, or nothing.
@Suite struct LineBreaksTests {
    static let titles: [String] = {
        var t = [
            "Month-End Close Pack — March 2017", "Quarterly Board Report Q1 2016", "Stores 101 – 150 Weekly Sales",
            "INV-2016-000017 — Globex", "Invoice INV-2016-000123 — Café Lumière", "Report number 42 of category 7",
            "Umsatzsteuervoranmeldung Dezember 2019", "A", "", "   leading and trailing spaces   ", "two  spaces  between",
            "Supercalifragilisticexpialidocious internationalisation", "12 pp summary, 3 kg sample (draft) v2.1",
            "Jahresabschluss 2018 / Konzernlagebericht", "Hyphen-ated-words-in-a-row and slashes/between/them",
            "Fiscal Year 2015 – 2016 Consolidated Statements of Cash Flows and Notes",
            "Département Île-de-France — Synthèse trimestrielle", "Rapport № 7: Ürün Satışları",
            "Report 📈 growth", "تقرير المبيعات الشهري", "Mixed English and עברית words", "月次売上レポート 2024年3月",
        ]
        let customers = ["Acme Logistics", "Bergmann AG", "Delta Foods", "Globex", "Hanse Textil", "Orion Retail"]
        for i in stride(from: 1, to: 400, by: 37) {
            t.append("Invoice INV-2016-\(String(format: "%06d", i)) — \(customers[i % customers.count])")
            t.append("Daily Sales Report \(2016 + i % 5)-\(String(format: "%02d", 1 + i % 12))-\(String(format: "%02d", 1 + i % 28)) Branch \(i)")
        }
        return t
    }()

    @Test func wrappingFromTheBreaksIsWhatPangoLaysOut() {
        let measurer = PangoTextMeasurer()
        var compared = 0
        var mismatches: [String] = []
        for title in Self.titles {
            guard let breaks = measurer.lineBreaks(title, role: .cardTitle) else { continue }
            var width = 20.0
            while width <= 420 {
                if let wrapped = breaks.wrapped(within: width) {
                    let laid = measurer.measure(title, role: .cardTitle, width: width)
                    compared += 1
                    if wrapped != laid, mismatches.count < 40 {
                        mismatches.append("'\(title)' at \(width): breaks \(wrapped), Pango \(laid)")
                    }
                }
                width += 0.75
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        #expect(compared > 5_000)
    }

    @Test func textInSeveralFontsOrDirectionsHasNone() {
        let measurer = PangoTextMeasurer()
        #expect(measurer.lineBreaks("Report 📈 growth", role: .cardTitle) == nil)
        #expect(measurer.lineBreaks("تقرير المبيعات الشهري", role: .cardTitle) == nil)
        #expect(measurer.lineBreaks("Mixed English and עברית words", role: .cardTitle) == nil)
        #expect(measurer.lineBreaks("Month-End Close Pack — March 2017", role: .cardTitle) != nil)
        #expect(measurer.lineBreaks("Month-End Close Pack", role: .categoryTitle) == nil)
    }

    @Test func aWordLongerThanTheLineIsLeftToTheMeasurer() throws {
        let measurer = PangoTextMeasurer()
        let breaks = try #require(measurer.lineBreaks("Supercalifragilisticexpialidocious internationalisation", role: .cardTitle))
        #expect(breaks.wrapped(within: 60) == nil)
        let one = try #require(breaks.wrapped(within: LineBreaks.unwrappedWidth))
        #expect(one == measurer.measure("Supercalifragilisticexpialidocious internationalisation", role: .cardTitle, width: LineBreaks.unwrappedWidth))
    }
}

extension LineBreaksTests {
    @Test func spacesAtTheEndsOrInRunsAreLeftToTheMeasurer() {
        let measurer = PangoTextMeasurer()
        #expect(measurer.lineBreaks("   leading and trailing spaces   ", role: .cardTitle) == nil)
        #expect(measurer.lineBreaks("two  spaces  between", role: .cardTitle) == nil)
        #expect(measurer.lineBreaks("trailing ", role: .cardTitle) == nil)
    }
}

extension LineBreaksTests {
    /// Every title of the shipped libraries (a sample of the large one's), at the widths a card
    /// can take.
    @Test func theShippedLibrariesWrapAsPangoLaysOut() throws {
        let data = URL(fileURLWithPath: packageRoot).appendingPathComponent("Data")
        var titles: [String] = []
        func collect(_ node: Any) {
            guard let object = node as? [String: Any] else { return }
            if let title = object["title"] as? String { titles.append(title) }
            for child in object["children"] as? [Any] ?? [] { collect(child) }
        }
        for name in ["reports.json", "international.json", "large.json"] {
            let before = titles.count
            collect(try JSONSerialization.jsonObject(with: Data(contentsOf: data.appendingPathComponent(name))))
            if name == "large.json" {
                let large = titles[before...]
                titles = Array(titles[..<before]) + large.enumerated().filter { $0.offset % 23 == 0 }.map(\.element)
            }
        }
        let measurer = PangoTextMeasurer()
        var modelled = 0, mismatches: [String] = []
        for title in titles {
            guard let breaks = measurer.lineBreaks(title, role: .cardTitle) else { continue }
            modelled += 1
            for width in stride(from: 82.0, through: 200, by: 2.5) {
                guard let wrapped = breaks.wrapped(within: width) else { continue }
                let laid = measurer.measure(title, role: .cardTitle, width: width)
                if wrapped != laid, mismatches.count < 10 { mismatches.append("'\(title)' at \(width): \(wrapped) vs \(laid)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        #expect(modelled * 10 > titles.count * 7, "only \(modelled) of \(titles.count) titles modelled")
    }
}
