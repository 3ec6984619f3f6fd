// Draws one sample report as a PDF with Cairo's PDF surface.
//
// Page 1: a header band in the branch colour with the title, the report's facts, a summary,
// KPI tiles and a chart. Page 2: a detail table, commentary and a breakdown chart. Page 3: a
// trend chart, risks and notes. All numbers come from a generator seeded with the report id.
//
// Text is drawn with Cairo's toy font API in "DejaVu Sans"; only characters DejaVu Sans has are
// drawn (no CJK), so the output does not depend on fontconfig's fallback fonts.

import CCairo
import Foundation

/// Collects the bytes Cairo writes.
private final class ByteSink {
    var bytes: [UInt8] = []
}

enum PDFWriter {
    /// Cairo failed to produce a PDF.
    struct CairoError: Error, CustomStringConvertible {
        var description: String
    }

    /// The finished PDF of `report`, with metadata and the date fix applied.
    static func render(_ report: SampleReport) throws -> [UInt8] {
        let sink = ByteSink()
        let size = report.paper.size
        let write: cairo_write_func_t = { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }
        guard
            let surface = cairo_pdf_surface_create_for_stream(
                write, Unmanaged.passUnretained(sink).toOpaque(), size.width, size.height)
        else { throw CairoError(description: "cannot create a PDF surface") }
        defer { cairo_surface_destroy(surface) }

        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, report.title)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_AUTHOR, report.author)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, report.subject)
        if !report.pdfKeywords.isEmpty {
            cairo_pdf_surface_set_metadata(
                surface, CAIRO_PDF_METADATA_KEYWORDS,
                report.pdfKeywords.joined(separator: report.keywordSeparator))
        }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "bubbles make-sample-library")
        // Fixed dates: without them Cairo stamps the current time.
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, report.created)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, report.modified)

        guard let cr = cairo_create(surface) else { throw CairoError(description: "cannot create a context") }
        let drawer = ReportDrawer(canvas: Canvas(cr: cr), report: report)
        for page in 1...report.pageCount {
            drawer.drawPage(page)
            cairo_show_page(cr)
        }
        let contextStatus = cairo_status(cr)
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        let surfaceStatus = cairo_surface_status(surface)
        guard contextStatus == CAIRO_STATUS_SUCCESS, surfaceStatus == CAIRO_STATUS_SUCCESS else {
            let status = contextStatus != CAIRO_STATUS_SUCCESS ? contextStatus : surfaceStatus
            throw CairoError(description: String(cString: cairo_status_to_string(status)))
        }
        return try withExtendedLifetime(sink) { try PDFDatePatch.addDatePrefixes(sink.bytes) }
    }
}

// MARK: - Canvas

/// A thin drawing layer over a Cairo context.
struct Canvas {
    enum Alignment { case left, centre, right }

    let cr: OpaquePointer

    static let fontFamily = "DejaVu Sans"

    func setColour(_ colour: RGB, alpha: Double = 1) {
        cairo_set_source_rgba(cr, colour.r, colour.g, colour.b, alpha)
    }

    func fillRect(_ x: Double, _ y: Double, _ width: Double, _ height: Double, _ colour: RGB) {
        setColour(colour)
        cairo_rectangle(cr, x, y, width, height)
        cairo_fill(cr)
    }

    func roundedRect(_ x: Double, _ y: Double, _ width: Double, _ height: Double, radius: Double) {
        let r = min(radius, width / 2, height / 2)
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + width - r, y + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, x + width - r, y + height - r, r, 0, Double.pi / 2)
        cairo_arc(cr, x + r, y + height - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }

    func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, width: Double, _ colour: RGB) {
        setColour(colour)
        cairo_set_line_width(cr, width)
        cairo_move_to(cr, x1, y1)
        cairo_line_to(cr, x2, y2)
        cairo_stroke(cr)
    }

    func font(size: Double, bold: Bool) {
        cairo_select_font_face(
            cr, Canvas.fontFamily, CAIRO_FONT_SLANT_NORMAL,
            bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
    }

    func width(_ text: String, size: Double, bold: Bool = false) -> Double {
        font(size: size, bold: bold)
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        return extents.x_advance
    }

    /// Draws `text` with its baseline at `y`.
    func text(
        _ text: String, _ x: Double, _ y: Double, size: Double, bold: Bool = false,
        colour: RGB, alpha: Double = 1, align: Alignment = .left
    ) {
        let advance = width(text, size: size, bold: bold)
        let start =
            switch align {
            case .left: x
            case .centre: x - advance / 2
            case .right: x - advance
            }
        setColour(colour, alpha: alpha)
        cairo_move_to(cr, start, y)
        cairo_show_text(cr, text)
    }

    /// `text` broken into lines no wider than `maxWidth` at the given font.
    func wrap(_ text: String, maxWidth: Double, size: Double, bold: Bool = false) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if current.isEmpty || width(candidate, size: size, bold: bold) <= maxWidth {
                current = candidate
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// `text` shortened with an ellipsis to fit `maxWidth`.
    func truncate(_ text: String, maxWidth: Double, size: Double, bold: Bool = false) -> String {
        if width(text, size: size, bold: bold) <= maxWidth { return text }
        var characters = Array(text)
        while !characters.isEmpty {
            characters.removeLast()
            let candidate = String(characters).trimmingCharacters(in: .whitespaces) + "…"
            if width(candidate, size: size, bold: bold) <= maxWidth { return candidate }
        }
        return "…"
    }
}

// MARK: - Palette

private enum Palette {
    static let ink = RGB(r: 0.12, g: 0.16, b: 0.22)  // headings
    static let body = RGB(r: 0.24, g: 0.28, b: 0.34)  // body text
    static let muted = RGB(r: 0.45, g: 0.49, b: 0.55)  // labels, axes
    static let rule = RGB(r: 0.84, g: 0.86, b: 0.89)
    static let grid = RGB(r: 0.91, g: 0.92, b: 0.94)
    static let stripe = RGB(r: 0.965, g: 0.97, b: 0.978)
    static let white = RGB(r: 1, g: 1, b: 1)
    static let good = RGB(r: 0.08, g: 0.5, b: 0.24)
    static let bad = RGB(r: 0.73, g: 0.11, b: 0.11)
    static let comparison = RGB(r: 0.36, g: 0.4, b: 0.46)
}

// MARK: - Report pages

/// Lays out the pages of one report.
private struct ReportDrawer {
    let canvas: Canvas
    let report: SampleReport
    let width: Double
    let height: Double
    let margin: Double
    let colour: RGB
    let data: ReportData

    init(canvas: Canvas, report: SampleReport) {
        self.canvas = canvas
        self.report = report
        (width, height) = report.paper.size
        margin = report.paper == .a4Landscape ? 40 : 48
        colour = report.branchColour
        data = ReportData(report: report)
    }

    var contentWidth: Double { width - 2 * margin }
    var footerTop: Double { height - 44 }

    func drawPage(_ page: Int) {
        switch page {
        case 1: drawFirstPage()
        case 2: drawDetailPage()
        default: drawTrendPage()
        }
        drawFooter(page)
    }

    // MARK: Page 1

    private func drawFirstPage() {
        // Header band with the company, the category path and the title.
        let titleSize = 23.0
        let titleLeading = 28.0
        let titleLines = canvas.wrap(report.title, maxWidth: contentWidth, size: titleSize, bold: true)
        let bandHeight = 70 + Double(titleLines.count - 1) * titleLeading + 26
        canvas.fillRect(0, 0, width, bandHeight, colour)
        canvas.fillRect(0, bandHeight, width, 4, colour.shade(0.25))
        canvas.text(
            companyName.uppercased(), margin, 32, size: 8.5, bold: true, colour: Palette.white)
        let leftWidth = canvas.width(companyName.uppercased(), size: 8.5, bold: true)
        let path = canvas.truncate(
            report.path.joined(separator: "  ›  "), maxWidth: contentWidth - leftWidth - 24, size: 8.5)
        canvas.text(path, width - margin, 32, size: 8.5, colour: Palette.white, alpha: 0.85, align: .right)
        for (index, line) in titleLines.enumerated() {
            canvas.text(
                line, margin, 70 + Double(index) * titleLeading, size: titleSize, bold: true,
                colour: Palette.white)
        }

        // Facts row.
        var y = bandHeight + 34
        let facts: [(String, String)] = [
            ("PREPARED BY", report.author),
            ("ISSUED", Format.longDate(report.createdAt)),
            ("CLASSIFICATION", data.classification),
            ("PERIOD", data.periodDescription),
        ]
        let column = contentWidth / Double(facts.count)
        for (index, fact) in facts.enumerated() {
            let x = margin + Double(index) * column
            canvas.text(fact.0, x, y, size: 7, bold: true, colour: Palette.muted)
            canvas.text(
                canvas.truncate(fact.1, maxWidth: column - 10, size: 9.5), x, y + 14, size: 9.5,
                colour: Palette.ink)
        }
        y += 32
        canvas.line(margin, y, width - margin, y, width: 0.6, Palette.rule)

        // Summary.
        y += 24
        canvas.text("Summary", margin, y, size: 12, bold: true, colour: Palette.ink)
        y += 17
        for line in canvas.wrap(data.summary, maxWidth: contentWidth, size: 9.5) {
            canvas.text(line, margin, y, size: 9.5, colour: Palette.body)
            y += 14
        }

        // KPI tiles.
        y += 12
        drawKPITiles(top: y)
        y += 68 + 30

        // Main chart, as tall as the page allows.
        let reserveForTable = report.pageCount == 1 && report.paper != .a4Landscape ? 190.0 : 0
        let available = footerTop - 30 - y - reserveForTable
        let showHighlights = reserveForTable == 0 && available > 330
        let chartHeight = min(showHighlights ? max(220, available - 110) : available, 320)
        drawSectionHeading(data.chartTitle, y: y, legend: data.lineChart ? .lines : .bars)
        let chartTop = y + 16
        if data.lineChart {
            drawLineChart(
                frame: (margin, chartTop, contentWidth, chartHeight - 16), labels: data.monthLabels,
                actual: data.monthlyActual, comparison: data.monthlyComparison)
        } else {
            drawBarChart(
                frame: (margin, chartTop, contentWidth, chartHeight - 16), labels: data.monthLabels,
                actual: data.monthlyActual, comparison: data.monthlyComparison)
        }
        if showHighlights {
            drawHighlights(top: chartTop + chartHeight + 18)
        }
        if reserveForTable > 0 {
            let tableTop = chartTop + chartHeight + 12
            drawSectionHeading(
                "Top five by \(report.theme.itemHeading.lowercased())", y: tableTop, legend: .none)
            let topFive = data.rows.sorted { $0.actual > $1.actual }.prefix(5)
            drawTable(top: tableTop + 12, rows: Array(topFive), totals: false)
        }
    }

    private func drawHighlights(top: Double) {
        var y = top
        canvas.text("Highlights", margin, y, size: 11, bold: true, colour: Palette.ink)
        y += 18
        for line in data.highlights {
            canvas.setColour(colour)
            cairo_new_sub_path(canvas.cr)
            cairo_arc(canvas.cr, margin + 3, y - 3.2, 2.2, 0, 2 * Double.pi)
            cairo_fill(canvas.cr)
            canvas.text(
                canvas.truncate(line, maxWidth: contentWidth - 14, size: 9.5), margin + 12, y, size: 9.5,
                colour: Palette.body)
            y += 15
        }
    }

    private func drawKPITiles(top: Double) {
        let count = Double(data.kpis.count)
        let gap = 12.0
        let tileWidth = (contentWidth - gap * (count - 1)) / count
        for (index, kpi) in data.kpis.enumerated() {
            let x = margin + Double(index) * (tileWidth + gap)
            canvas.setColour(colour.tint(0.92))
            canvas.roundedRect(x, top, tileWidth, 68, radius: 4)
            cairo_fill(canvas.cr)
            canvas.fillRect(x, top + 10, 3, 48, colour)
            canvas.text(
                canvas.truncate(kpi.label.uppercased(), maxWidth: tileWidth - 24, size: 7, bold: true),
                x + 14, top + 19, size: 7, bold: true, colour: Palette.muted)
            canvas.text(
                kpi.value, x + 14, top + 42, size: tileWidth < 110 ? 14 : 17, bold: true,
                colour: colour.shade(0.3))
            let arrow = kpi.change >= 0 ? "▲" : "▼"
            let good = (kpi.change >= 0) == kpi.higherIsBetter
            let change = Format.grouped(abs(kpi.change), decimals: 1)
            canvas.text(
                "\(arrow) \(change)% vs \(report.theme.series.1.lowercased())",
                x + 14, top + 58, size: 7.5, colour: good ? Palette.good : Palette.bad)
        }
    }

    private enum Legend { case none, bars, lines }

    private func drawSectionHeading(_ title: String, y: Double, legend: Legend) {
        canvas.text(title, margin, y, size: 11, bold: true, colour: Palette.ink)
        guard legend != .none else { return }
        let second = report.theme.series.1
        let first = report.theme.series.0
        var x = width - margin
        x -= canvas.width(second, size: 8)
        canvas.text(second, x, y, size: 8, colour: Palette.body)
        x -= 16
        if legend == .lines {
            canvas.setColour(Palette.comparison)
            cairo_set_dash(canvas.cr, [3, 2], 2, 0)
            canvas.line(x, y - 3, x + 12, y - 3, width: 1.5, Palette.comparison)
            cairo_set_dash(canvas.cr, nil, 0, 0)
        } else {
            canvas.line(x, y - 3, x + 12, y - 3, width: 1.5, Palette.comparison)
        }
        x -= 14
        x -= canvas.width(first, size: 8)
        canvas.text(first, x, y, size: 8, colour: Palette.body)
        x -= 14
        canvas.fillRect(x, y - 7, 9, 8, colour)
    }

    // MARK: Charts

    typealias Frame = (x: Double, y: Double, width: Double, height: Double)

    /// Draws the axes and grid for values up to `maximum` and returns the plot area and its top value.
    private func drawAxes(frame: Frame, maximum: Double, labels: [String]) -> (plot: Frame, top: Double) {
        let step = niceStep(maximum / 4)
        let top = (maximum / step).rounded(.up) * step
        let labelWidth = canvas.width(Format.axis(top, step: step, top: top), size: 7.5) + 8
        let plot: Frame = (frame.x + labelWidth, frame.y + 6, frame.width - labelWidth, frame.height - 24)
        var value = 0.0
        while value <= top + step / 2 {
            let y = plot.y + plot.height - value / top * plot.height
            canvas.line(
                plot.x, y, plot.x + plot.width, y, width: value == 0 ? 0.8 : 0.5,
                value == 0 ? Palette.muted : Palette.grid)
            canvas.text(
                Format.axis(value, step: step, top: top), plot.x - 6, y + 2.5, size: 7.5,
                colour: Palette.muted, align: .right)
            value += step
        }
        let slot = plot.width / Double(labels.count)
        let every = slot < 30 ? 2 : 1
        for (index, label) in labels.enumerated() where index % every == 0 {
            canvas.text(
                label, plot.x + slot * (Double(index) + 0.5), plot.y + plot.height + 13,
                size: 7.5, colour: Palette.muted, align: .centre)
        }
        return (plot, top)
    }

    private func drawBarChart(frame: Frame, labels: [String], actual: [Double], comparison: [Double]) {
        let (plot, top) = drawAxes(
            frame: frame, maximum: max(actual.max()!, comparison.max()!), labels: labels)
        let slot = plot.width / Double(actual.count)
        let barWidth = slot * 0.56
        for (index, value) in actual.enumerated() {
            let h = value / top * plot.height
            let x = plot.x + slot * Double(index) + (slot - barWidth) / 2
            canvas.setColour(index == actual.count - 1 ? colour : colour.tint(0.25))
            canvas.roundedRect(x, plot.y + plot.height - h, barWidth, h, radius: 1.5)
            cairo_fill(canvas.cr)
        }
        // Comparison as short markers over each bar.
        for (index, value) in comparison.enumerated() {
            let y = plot.y + plot.height - value / top * plot.height
            let x = plot.x + slot * Double(index) + (slot - barWidth) / 2 - 2
            canvas.line(x, y, x + barWidth + 4, y, width: 1.8, Palette.comparison)
        }
    }

    private func drawLineChart(frame: Frame, labels: [String], actual: [Double], comparison: [Double]) {
        let (plot, top) = drawAxes(
            frame: frame, maximum: max(actual.max()!, comparison.max()!), labels: labels)
        let slot = plot.width / Double(actual.count)
        func point(_ index: Int, _ value: Double) -> (Double, Double) {
            (plot.x + slot * (Double(index) + 0.5), plot.y + plot.height - value / top * plot.height)
        }
        let cr = canvas.cr
        // Area under the actual line.
        let first = point(0, actual[0])
        cairo_move_to(cr, first.0, plot.y + plot.height)
        for (index, value) in actual.enumerated() {
            let p = point(index, value)
            cairo_line_to(cr, p.0, p.1)
        }
        cairo_line_to(cr, point(actual.count - 1, 0).0, plot.y + plot.height)
        cairo_close_path(cr)
        canvas.setColour(colour, alpha: 0.12)
        cairo_fill(cr)
        // Comparison, dashed.
        cairo_set_dash(cr, [3, 2], 2, 0)
        canvas.setColour(Palette.comparison)
        cairo_set_line_width(cr, 1.4)
        for (index, value) in comparison.enumerated() {
            let p = point(index, value)
            if index == 0 { cairo_move_to(cr, p.0, p.1) } else { cairo_line_to(cr, p.0, p.1) }
        }
        cairo_stroke(cr)
        cairo_set_dash(cr, nil, 0, 0)
        // Actual, solid with points.
        canvas.setColour(colour)
        cairo_set_line_width(cr, 2)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        for (index, value) in actual.enumerated() {
            let p = point(index, value)
            if index == 0 { cairo_move_to(cr, p.0, p.1) } else { cairo_line_to(cr, p.0, p.1) }
        }
        cairo_stroke(cr)
        for (index, value) in actual.enumerated() {
            let p = point(index, value)
            cairo_new_sub_path(cr)
            cairo_arc(cr, p.0, p.1, 2.6, 0, 2 * Double.pi)
            canvas.setColour(Palette.white)
            cairo_fill_preserve(cr)
            canvas.setColour(colour)
            cairo_set_line_width(cr, 1.4)
            cairo_stroke(cr)
        }
    }

    /// Horizontal bars with labels and values, largest first.
    private func drawBreakdown(frame: Frame, items: [(String, Double)]) {
        let total = items.reduce(0) { $0 + $1.1 }
        let maximum = items.map(\.1).max() ?? 1
        let labelWidth = min(150, frame.width * 0.32)
        let rowHeight = min(22, frame.height / Double(items.count))
        for (index, item) in items.enumerated() {
            let y = frame.y + Double(index) * rowHeight
            canvas.text(
                canvas.truncate(item.0, maxWidth: labelWidth - 8, size: 8.5), frame.x, y + rowHeight / 2 + 3,
                size: 8.5, colour: Palette.body)
            let barSpace = frame.width - labelWidth - 48
            let barWidth = max(2, item.1 / maximum * barSpace)
            canvas.fillRect(
                frame.x + labelWidth, y + rowHeight * 0.22, barSpace, rowHeight * 0.56, Palette.stripe)
            canvas.fillRect(
                frame.x + labelWidth, y + rowHeight * 0.22, barWidth, rowHeight * 0.56,
                colour.tint(Double(index) * 0.09))
            canvas.text(
                Format.grouped(item.1 / total * 100, decimals: 1) + "%", frame.x + frame.width,
                y + rowHeight / 2 + 3, size: 8.5, bold: true, colour: Palette.ink, align: .right)
        }
    }

    // MARK: Page 2

    private func drawRunningHeader() -> Double {
        canvas.fillRect(0, 0, width, 30, colour)
        let company = companyName.uppercased()
        let companyWidth = canvas.width(company, size: 7.5, bold: true)
        canvas.text(
            canvas.truncate(report.title, maxWidth: contentWidth - companyWidth - 24, size: 9, bold: true),
            margin, 19, size: 9, bold: true, colour: Palette.white)
        canvas.text(
            company, width - margin, 19, size: 7.5, bold: true, colour: Palette.white, alpha: 0.85,
            align: .right)
        return 66
    }

    private func drawDetailPage() {
        var y = drawRunningHeader()
        canvas.text(
            "Detail by \(report.theme.itemHeading.lowercased())", margin, y, size: 14, bold: true,
            colour: Palette.ink)
        y += 16
        canvas.text(
            "Period ending \(Format.longDate(data.periodEnd)). \(data.unitNote)", margin, y, size: 8.5,
            colour: Palette.muted)
        y += 14
        y = drawTable(top: y, rows: data.rows, totals: true)

        y += 34
        canvas.text("Commentary", margin, y, size: 12, bold: true, colour: Palette.ink)
        y += 18
        for paragraph in data.commentary {
            for line in canvas.wrap(paragraph, maxWidth: contentWidth, size: 9.5) {
                canvas.text(line, margin, y, size: 9.5, colour: Palette.body)
                y += 14
            }
            y += 6
        }

        let remaining = footerTop - 30 - (y + 24)
        if remaining > 110 {
            y += 18
            canvas.text(
                "Share of \(report.theme.series.0.lowercased()) by \(report.theme.itemHeading.lowercased())",
                margin, y, size: 11, bold: true, colour: Palette.ink)
            let items = data.rows.sorted { $0.actual > $1.actual }.prefix(Int(min(8, remaining / 22)))
            drawBreakdown(
                frame: (margin, y + 10, contentWidth, min(remaining - 10, Double(items.count) * 22)),
                items: items.map { ($0.label, $0.actual) })
        }
    }

    /// Draws a table of rows (and a totals row) and returns the y below it.
    @discardableResult
    private func drawTable(top: Double, rows: [ReportData.Row], totals: Bool) -> Double {
        let headings = [
            report.theme.itemHeading, report.theme.series.0, report.theme.series.1, "Variance", "Var. %",
        ]
        let rowHeight = 19.0
        let numeric = contentWidth * 0.56
        let columnWidth = numeric / 4
        func columnRight(_ index: Int) -> Double {
            margin + contentWidth - numeric + columnWidth * Double(index)
        }
        var y = top
        canvas.fillRect(margin, y, contentWidth, rowHeight + 2, colour.tint(0.86))
        for (index, heading) in headings.enumerated() {
            if index == 0 {
                canvas.text(heading, margin + 8, y + 13.5, size: 8, bold: true, colour: colour.shade(0.45))
            } else {
                canvas.text(
                    heading, columnRight(index) - 8, y + 13.5, size: 8, bold: true,
                    colour: colour.shade(0.45), align: .right)
            }
        }
        y += rowHeight + 2
        var allRows = rows
        if totals {
            let actual = rows.reduce(0) { $0 + $1.actual }
            let comparison = rows.reduce(0) { $0 + $1.comparison }
            allRows.append(.init(label: "Total", actual: actual, comparison: comparison))
        }
        for (index, row) in allRows.enumerated() {
            let isTotal = totals && index == allRows.count - 1
            if isTotal {
                canvas.line(margin, y, margin + contentWidth, y, width: 0.9, Palette.muted)
            } else if index % 2 == 1 {
                canvas.fillRect(margin, y, contentWidth, rowHeight, Palette.stripe)
            }
            let baseline = y + 13
            canvas.text(
                canvas.truncate(row.label, maxWidth: contentWidth - numeric - 12, size: 8.5, bold: isTotal),
                margin + 8, baseline, size: 8.5, bold: isTotal, colour: Palette.ink)
            let variance = row.actual - row.comparison
            let percent = row.comparison == 0 ? 0 : variance / row.comparison * 100
            let cells = [
                data.tableValue(row.actual), data.tableValue(row.comparison),
                (variance >= 0 ? "+" : "") + data.tableValue(variance),
                (percent >= 0 ? "+" : "") + Format.grouped(percent, decimals: 1) + "%",
            ]
            for (cellIndex, cell) in cells.enumerated() {
                let signed = cellIndex >= 2
                let tone =
                    signed
                    ? ((variance >= 0) == data.higherIsBetter ? Palette.good : Palette.bad) : Palette.ink
                canvas.text(
                    cell, columnRight(cellIndex + 1) - 8, baseline, size: 8.5, bold: isTotal,
                    colour: tone, align: .right)
            }
            y += rowHeight
        }
        canvas.line(margin, y, margin + contentWidth, y, width: 0.6, Palette.rule)
        return y
    }

    // MARK: Page 3

    private func drawTrendPage() {
        var y = drawRunningHeader()
        canvas.text("Trend and outlook", margin, y, size: 14, bold: true, colour: Palette.ink)
        y += 30
        drawSectionHeading("Eight-quarter trend", y: y, legend: data.lineChart ? .bars : .lines)
        let chartHeight = min(250, (footerTop - y) * 0.45)
        if data.lineChart {
            drawBarChart(
                frame: (margin, y + 16, contentWidth, chartHeight), labels: data.quarterLabels,
                actual: data.quarterlyActual, comparison: data.quarterlyComparison)
        } else {
            drawLineChart(
                frame: (margin, y + 16, contentWidth, chartHeight), labels: data.quarterLabels,
                actual: data.quarterlyActual, comparison: data.quarterlyComparison)
        }
        y += 16 + chartHeight + 36

        canvas.text("Risks and actions", margin, y, size: 12, bold: true, colour: Palette.ink)
        y += 20
        for (index, risk) in data.risks.enumerated() {
            let badge = "\(index + 1)"
            canvas.setColour(colour)
            cairo_new_sub_path(canvas.cr)
            cairo_arc(canvas.cr, margin + 7, y - 3.5, 7, 0, 2 * Double.pi)
            cairo_fill(canvas.cr)
            canvas.text(badge, margin + 7, y, size: 8, bold: true, colour: Palette.white, align: .centre)
            let lines = canvas.wrap(risk, maxWidth: contentWidth - 24, size: 9.5)
            for line in lines {
                canvas.text(line, margin + 22, y, size: 9.5, colour: Palette.body)
                y += 14
            }
            y += 8
        }

        if footerTop - y > 90 {
            y += 14
            canvas.text("Notes", margin, y, size: 12, bold: true, colour: Palette.ink)
            y += 18
            for note in data.notes {
                for line in canvas.wrap(note, maxWidth: contentWidth, size: 8.5) {
                    guard y < footerTop - 24 else { return }
                    canvas.text(line, margin, y, size: 8.5, colour: Palette.muted)
                    y += 12.5
                }
                y += 4
            }
        }
    }

    // MARK: Footer

    private func drawFooter(_ page: Int) {
        canvas.line(margin, footerTop, width - margin, footerTop, width: 0.5, Palette.rule)
        canvas.text(
            "\(companyName)  ·  \(data.classification)  ·  \(report.branchTitle)  ·  Ref. \(report.id)",
            margin, footerTop + 16,
            size: 7.5, colour: Palette.muted)
        canvas.text(
            "Page \(page) of \(report.pageCount)", width - margin, footerTop + 16, size: 7.5,
            colour: Palette.muted, align: .right)
    }
}

/// A round step (1, 2, 2.5 or 5 times a power of ten) at least `raw`.
private func niceStep(_ raw: Double) -> Double {
    guard raw > 0 else { return 1 }
    let magnitude = pow(10, (log10(raw)).rounded(.down))
    for factor in [1.0, 2, 2.5, 5, 10] where factor * magnitude >= raw {
        return factor * magnitude
    }
    return 10 * magnitude
}
