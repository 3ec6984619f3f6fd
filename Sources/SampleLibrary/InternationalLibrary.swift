// The multilingual sample datasource (Data/international.json): titles in many scripts, emoji,
// mixed directions and one very long German word, on the sample library's PDFs. The text tests and
// `Renders/level-international.png` use it.

import ReportLibrary

extension SampleLibrary {
    /// The multilingual datasource document: categories and reports titled in Japanese, Chinese,
    /// Korean, Arabic, Persian, Hebrew, Thai, Devanagari, Greek, Cyrillic and Vietnamese, with emoji
    /// (ZWJ sequences and flags) and mixed-direction titles. Its reports point at PDFs of the sample
    /// library (`reports/…`), so it lives beside `reports.json`.
    public static func internationalDocument() -> String {
        typealias Node = DatasourceNode
        var pdfs = InternationalLibrary.pdfs.makeIterator()
        func report(_ id: String, _ title: String) -> Node {
            Node(id: id, title: title, colour: nil, file: "reports/\(pdfs.next()!).pdf", children: [])
        }
        func category(_ id: String, _ title: String, _ colour: String?, _ children: [Node]) -> Node {
            Node(id: id, title: title, colour: colour, file: nil, children: children)
        }
        let root = category("global", "Global Reports 🌍", nil, [
            category("japan", "日本 · 月次報告", "#1E6FD9", [
                report("jp-q1", "2016年第1四半期 売上報告書"),
                report("jp-close", "月次決算パッケージ 2017年3月"),
                report("jp-tokyo", "東京本社 経費精算の概要"),
            ]),
            category("china", "中国区 财务报表", "#D94A5B", [
                report("cn-consolidated", "2016年度合并财务报表"),
                report("cn-east", "华东区 销售分析"),
            ]),
            category("korea", "한국 지사 보고서", "#7A4FD1", [report("kr-quarterly", "2016년 분기별 매출 보고서")]),
            category("arabic", "التقارير المالية", "#129A8A", [
                report("ar-annual", "التقرير المالي السنوي 2016"),
                report("ar-mixed", "Q1 2016 — التقرير المالي (final)"),
            ]),
            category("persian", "گزارش‌های مالی", "#3BA55C", [report("fa-sales", "گزارش فروش سه‌ماهه")]),
            category("hebrew", "דוחות כספיים", "#E89B2C", [
                report("he-quarterly", "דוח רבעוני 2016"),
                report("he-budget", "תקציב 2017"),
            ]),
            category("thai", "รายงานประเทศไทย", "#5AB4E0", [report("th-sales", "รายงานยอดขายประจำไตรมาส")]),
            category("india", "भारत की रिपोर्टें", "#C45CA8", [report("hi-annual", "वार्षिक वित्तीय रिपोर्ट 2016")]),
            category("europe", "Ελλάδα · Россия · Việt Nam", "#2F6FDB", [
                report("el-annual", "Ετήσια Έκθεση 2016"),
                report("ru-pnl", "Квартальный отчёт о прибылях и убытках"),
                report("vi-consolidated", "Báo cáo tài chính hợp nhất năm 2016 — Nguyễn"),
            ]),
            report("de-long", "Rechnungsabgrenzungspostenübersicht Geschäftsjahr 2016"),
            report("ar-root", "Q1 2016 — التقرير المالي (final)"),
            report("he-root", "דוח רבעוני 2016"),
            report("ja-root", "2016年第1四半期 売上報告書"),
            report("emoji-zwj", "👩‍💻 Engineering Hiring 2017"),
            report("emoji-flags", "🇩🇪 🇫🇷 🇯🇵 Country Packs"),
            report("emoji-launch", "🚀 Launch Metrics ✅"),
        ])
        return root.json(indent: 0) + "\n"
    }
}

enum InternationalLibrary {
    /// Sample-library PDFs the multilingual reports point at, in order.
    static let pdfs = [
        "q1-2016", "q2-2016", "q3-2016", "q4-2016", "close-2016-01", "close-2016-02", "close-2016-03", "close-2016-04",
        "close-2016-05", "close-2016-06", "close-2016-07", "close-2016-08", "close-2016-09", "close-2016-10",
        "close-2016-11", "close-2016-12", "close-2017-01", "close-2017-02", "close-2017-03", "close-2017-04",
        "close-2017-05", "close-2017-06", "close-2017-07", "close-2017-08", "close-2017-09",
    ]
}

/// A category (`file` nil) or a report, written in reports.json's layout.
struct DatasourceNode {
    var id: String
    var title: String
    var colour: String?
    var file: String?
    var children: [DatasourceNode]

    func json(indent: Int) -> String {
        let inner = String(repeating: "  ", count: indent + 1)
        var members = ["\"id\": \(JSONLiteral.string(id))", "\"title\": \(JSONLiteral.string(title))"]
        if let colour { members.append("\"colour\": \(JSONLiteral.string(colour))") }
        if let file {
            members.append("\"file\": \(JSONLiteral.string(file))")
        } else {
            let items = children.map { String(repeating: "  ", count: indent + 2) + $0.json(indent: indent + 2) }
            members.append("\"children\": [\n" + items.joined(separator: ",\n") + "\n" + inner + "]")
        }
        return "{\n" + members.map { inner + $0 }.joined(separator: ",\n") + "\n" + String(repeating: "  ", count: indent) + "}"
    }
}
