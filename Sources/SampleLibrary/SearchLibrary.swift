// The search benchmark's library: a datasource of many reports (100 000 by default) with titles,
// keywords and authors in many scripts, on a set of distinct PDFs made from the sample library's
// reports with multilingual titles, authors and keywords. Deterministic; `bubbles bench search`
// writes it into a folder of its own.

import Foundation
import ReportLibrary

extension SampleLibrary {
    /// What `writeSearchLibrary` wrote.
    public struct SearchLibrarySummary: Sendable {
        /// The datasource file (`library.json` in the folder).
        public var datasource: String
        /// Reports in the datasource.
        public var reports: Int
        /// Distinct PDF files the reports point at.
        public var pdfs: Int
        /// PDFs written by this call (the others were already there).
        public var pdfsWritten: Int
    }

    /// Writes `library.json` with `reports` reports and `pdfs` distinct PDFs under `reports/` into
    /// `directory`. PDFs already there are kept (they depend only on their index), so a second call
    /// writes only the datasource. Titles mix English, German, French, Spanish, Chinese, Japanese,
    /// Korean, Arabic, Hebrew, Thai, Russian, Greek and Vietnamese; each report has 1–4 datasource
    /// keywords, and each PDF an author and keywords of its own.
    @discardableResult
    public static func writeSearchLibrary(into directory: String, reports: Int = 100_000, pdfs: Int = 1_000) throws -> SearchLibrarySummary {
        let fm = FileManager.default
        try fm.createDirectory(atPath: directory + "/reports", withIntermediateDirectories: true)
        let templates = allReports(try library())
        var written = 0
        for i in 0..<pdfs {
            let path = directory + "/reports/" + SearchLibrary.pdfName(i)
            if fm.fileExists(atPath: path) { continue }
            var random = SampleRandom(seed: "search-pdf-\(i)")
            var report = templates[i % templates.count]
            let language = SearchLibrary.languages[i % SearchLibrary.languages.count]
            report.title = SearchLibrary.title(language, &random)
            report.author = random.pick(SearchLibrary.authors)
            report.pdfKeywords = (0..<random.int(in: 1...4)).map { _ in random.pick(SearchLibrary.keywords) }
            report.pageCount = min(report.pageCount, 2)
            let bytes = try pdf(for: report)
            try Data(bytes).write(to: URL(fileURLWithPath: path + ".tmp"))
            try? fm.removeItem(atPath: path)  // a file that is not there is what is wanted
            try fm.moveItem(atPath: path + ".tmp", toPath: path)
            written += 1
        }
        let json = SearchLibrary.document(reports: reports, pdfs: pdfs)
        let datasource = directory + "/library.json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: datasource), options: .atomic)
        return SearchLibrarySummary(datasource: datasource, reports: reports, pdfs: pdfs, pdfsWritten: written)
    }
}

enum SearchLibrary {
    static func pdfName(_ i: Int) -> String {
        let s = String(i)
        return "s-" + String(repeating: "0", count: max(0, 5 - s.count)) + s + ".pdf"
    }

    struct Language {
        var code: String
        /// Words are joined without spaces (Chinese, Japanese, Thai).
        var unspaced: Bool
        var words: [String]
        var categories: [String]
    }

    static let languages: [Language] = [
        Language(code: "en", unspaced: false, words: [
            "Revenue", "Forecast", "Board", "Minutes", "Customer", "Churn", "Supply", "Chain", "Risk", "Inventory", "Quarterly",
            "Review", "Annual", "Report", "Budget", "Variance", "Payroll", "Retention", "Logistics", "Pricing", "Audit",
            "Treasury", "Liquidity", "Marketing", "Campaign", "Performance", "Store", "Region", "Summary", "Outlook",
        ], categories: ["Finance", "Operations", "Sales", "People", "Legal", "Marketing"]),
        Language(code: "de", unspaced: false, words: [
            "Umsätze", "Prognose", "Quartalsbericht", "Jahresabschluss", "Kostenstelle", "Übersicht", "Personal", "Lieferkette",
            "Prüfung", "Bilanz", "Gewinn", "Verlust", "Märkte", "Filiale", "Zürich", "München", "Straße", "Geschäftsbericht",
        ], categories: ["Finanzen", "Vertrieb", "Personalwesen", "Einkauf"]),
        Language(code: "fr", unspaced: false, words: [
            "Prévisions", "Chiffre", "d'affaires", "Résumé", "Évaluation", "Trésorerie", "Rapport", "Trimestriel", "Bilan",
            "Ventes", "Région", "Capitaux", "Dépenses", "Coût", "Société", "Général",
        ], categories: ["Finances", "Ventes", "Ressources humaines"]),
        Language(code: "es", unspaced: false, words: [
            "Informe", "Ventas", "Presupuesto", "Análisis", "Año", "Región", "Gestión", "Auditoría", "Nómina", "Pronóstico",
        ], categories: ["Finanzas", "Operaciones"]),
        Language(code: "zh", unspaced: true, words: [
            "财务", "报告", "报表", "销售", "分析", "年度", "季度", "华东区", "合并", "预算", "审计", "库存", "供应链", "风险", "客户",
        ], categories: ["财务部", "销售部"]),
        Language(code: "ja", unspaced: true, words: [
            "月次", "報告書", "売上", "決算", "東京", "本社", "経費", "精算", "概要", "予算", "四半期", "会議", "議事録", "在庫", "分析",
        ], categories: ["経理", "営業"]),
        Language(code: "ko", unspaced: false, words: [
            "매출", "보고서", "분기별", "연간", "재무", "예산", "지사", "분석", "감사", "인사", "고객", "재고",
        ], categories: ["재무팀", "영업팀"]),
        Language(code: "ar", unspaced: false, words: [
            "التقرير", "المالي", "السنوي", "المبيعات", "الميزانية", "تحليل", "الربع", "الأول", "المخزون", "العملاء", "التدقيق",
        ], categories: ["المالية", "المبيعات"]),
        Language(code: "he", unspaced: false, words: [
            "דוח", "רבעוני", "תקציב", "מכירות", "שנתי", "ניתוח", "כספי", "לקוחות", "מלאי", "ביקורת",
        ], categories: ["כספים", "מכירות"]),
        Language(code: "th", unspaced: true, words: [
            "รายงาน", "ประจำปี", "การเงิน", "ยอดขาย", "งบประมาณ", "ไตรมาส", "วิเคราะห์", "ลูกค้า", "สินค้าคงคลัง",
        ], categories: ["การเงิน", "ฝ่ายขาย"]),
        Language(code: "ru", unspaced: false, words: [
            "Отчёт", "Финансовый", "Квартальный", "Продажи", "Бюджет", "Анализ", "Годовой", "Клиенты", "Запасы", "Аудит",
        ], categories: ["Финансы", "Продажи"]),
        Language(code: "el", unspaced: false, words: [
            "Έκθεση", "Οικονομική", "Τριμηνιαία", "Πωλήσεις", "Προϋπολογισμός", "Ανάλυση", "Ετήσια", "Πελάτες",
        ], categories: ["Οικονομικά", "Πωλήσεις"]),
        Language(code: "vi", unspaced: false, words: [
            "Báo", "cáo", "Tài", "chính", "Doanh", "thu", "Ngân", "sách", "Phân", "tích", "Hàng", "năm", "Khách", "hàng",
        ], categories: ["Tài chính", "Kinh doanh"]),
    ]

    static let authors = [
        "Anna Müller", "José Núñez", "Zoë Dupont", "Søren Kierkegaard", "Łukasz Wiśniewski", "Françoise Lefèvre",
        "山田太郎", "佐藤花子", "王伟", "李娜", "김민준", "이서연", "محمد العلي", "فاطمة الزهراء", "דוד כהן", "שרה לוי",
        "สมชาย ใจดี", "Иван Петров", "Ελένη Παπαδοπούλου", "Nguyễn Văn An", "Priya Sharma", "Olivia Smith", "Liam O'Brien",
    ]

    static let keywords = [
        "revenue", "forecast", "budget", "audit", "board pack", "KPI", "EBITDA", "year end", "Q1", "Q2", "Q3", "Q4",
        "Umsatz", "Übersicht", "Prévision", "Évaluation", "売上", "決算", "财务", "销售", "매출", "재무", "المالية", "תקציב",
        "การเงิน", "Финансы", "Πωλήσεις", "Doanh thu", "retail", "DACH", "Nordics", "risk", "payroll", "inventory",
    ]

    static func title(_ language: Language, _ random: inout SampleRandom) -> String {
        let count = random.int(in: 2...5)
        var words = (0..<count).map { _ in random.pick(language.words) }
        if random.chance(0.5) { words.append(String(random.int(in: 2010...2031))) }
        if random.chance(0.2) { words.append("Q\(random.int(in: 1...4))") }
        return words.joined(separator: language.unspaced ? "" : " ")
    }

    /// The datasource: one category per language, ten subcategories each, reports spread over them.
    static func document(reports: Int, pdfs: Int) -> String {
        var out = "{\"id\": \"search-root\", \"title\": \"All Reports\", \"children\": [\n"
        let perLanguage = (reports + languages.count - 1) / languages.count
        var made = 0
        for (l, language) in languages.enumerated() {
            if l > 0 { out += ",\n" }
            out += "{\"id\": \"lang-\(language.code)\", \"title\": \(JSONLiteral.string(language.categories[0])), \"children\": [\n"
            let here = min(perLanguage, reports - made)
            let subs = 10
            for s in 0..<subs {
                if s > 0 { out += ",\n" }
                let name = language.categories[s % language.categories.count] + " \(s + 1)"
                out += "{\"id\": \"cat-\(language.code)-\(s)\", \"title\": \(JSONLiteral.string(name)), \"children\": [\n"
                let count = here / subs + (s < here % subs ? 1 : 0)
                for r in 0..<count {
                    let n = made
                    made += 1
                    var random = SampleRandom(seed: "search-report-\(n)")
                    let title = title(language, &random)
                    let chosen = (0..<random.int(in: 1...4)).map { _ in random.pick(SearchLibrary.keywords) }
                    let unique = chosen.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
                    let pdf = pdfName(random.int(in: 0...(pdfs - 1)))
                    if r > 0 { out += ",\n" }
                    out += "{\"id\": \"r\(n)\", \"title\": \(JSONLiteral.string(title)), \"file\": \"reports/\(pdf)\", \"keywords\": ["
                        + unique.map { JSONLiteral.string($0) }.joined(separator: ", ") + "]}"
                }
                out += "]}"
            }
            out += "]}"
        }
        return out + "]}\n"
    }
}
