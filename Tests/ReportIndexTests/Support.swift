import Foundation
@testable import ReportIndex
import ReportLibrary
import TestSupport

/// A scratch folder with a small library: `library.json` and PDFs copied from the sample, so that
/// tests may change, touch and delete them.
struct TestLibrary {
    let folder: String
    let store: TestStore
    /// A name unique to this library (PostgreSQL datasource names).
    let unique: String
    var datasource: String { folder + "/library.json" }
    var indexPath: String { otherIndexPath("library") }

    /// The location of an index named `name` in this library's store: a file in its folder, or a
    /// datasource of its own in the test server's database.
    func otherIndexPath(_ name: String) -> String {
        switch store {
        case .sqlite: return folder + "/\(name).index.sqlite"
        case .postgres:
            let url = TestStore.postgresURL ?? "postgres://localhost/none"
            return url + (url.contains("?") ? "&" : "?") + "datasource=t_\(unique)_\(name)"
        }
    }

    /// Drops a PostgreSQL index's schema (a file index goes with the folder).
    func removeIndex(_ location: String) {
        guard store == .postgres, let url = TestStore.postgresURL else { return }
        _ = url
        TestStore.dropSchema(location)
    }

    /// The sample PDFs the reports use, in order.
    static let samplePDFs = [
        "q1-2016", "q2-2016", "close-2016-01", "close-2016-02", "close-2016-03", "trademark-portfolio-review",
        "zurich-office-lease-review", "weekly-pipeline-review",
    ]

    /// A library of these reports: (id, title, category path below the root, PDF index, keywords).
    static let reports: [(String, String, [String], Int, [String])] = [
        ("rev-2016", "Revenue Forecast 2016", ["finance", "forecasts"], 0, ["forecast"]),
        ("rev-2017", "Revenue Forecast 2017", ["finance", "forecasts"], 1, ["forecast", "Budget"]),
        ("umsatz", "Umsätze Zürich 2031", ["finance", "dach"], 2, ["DACH"]),
        ("strasse", "Straßenbau Résumé", ["finance", "dach"], 3, []),
        ("jp-report", "月次報告書 2016年", ["asia", "japan"], 4, ["売上"]),
        ("cn-report", "华东区 销售分析报告", ["asia", "china"], 5, ["财务"]),
        ("kr-report", "2016년 분기별 매출 보고서", ["asia", "korea"], 6, []),
        ("th-report", "รายงานประจำปี 2559", ["asia", "thailand"], 7, ["การเงิน"]),
        ("ar-report", "التقرير المالي السنوي", ["mideast", "arabic"], 0, []),
        ("he-report", "דוח רבעוני 2016", ["mideast", "hebrew"], 1, []),
        ("el-report", "Οικονομική Έκθεση", ["europe", "greek"], 2, []),
        ("vi-report", "Báo cáo Tài chính Hà Nội", ["europe", "vietnam"], 3, []),
        ("quotes", "The \"AND\" OR NEAR(report) * - : ^ (x)", ["europe", "odd"], 4, []),
    ]

    init(name: String = "index", store: TestStore = .sqlite) throws {
        self.store = store
        unique = String(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16))
        folder = NSTemporaryDirectory() + "bubbles-\(name)-\(UUID().uuidString)"
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder + "/pdf", withIntermediateDirectories: true)
        for (i, pdf) in Self.samplePDFs.enumerated() {
            try fm.copyItem(atPath: packageRoot + "/Data/reports/\(pdf).pdf", toPath: folder + "/pdf/\(i).pdf")
        }
        try write(Self.reports)
    }

    /// Writes the datasource for `reports`.
    func write(_ reports: [(String, String, [String], Int, [String])]) throws {
        var categories: [String: [String]] = [:]
        var order: [String] = []
        for r in reports {
            let key = r.2.joined(separator: "/")
            if categories[key] == nil { order.append(key) }
            let keywords = r.4.isEmpty ? "" : ", \"keywords\": [" + r.4.map { JSONLiteral.string($0) }.joined(separator: ", ") + "]"
            categories[key, default: []].append(
                "{\"id\": \(JSONLiteral.string(r.0)), \"title\": \(JSONLiteral.string(r.1)), \"file\": \"pdf/\(r.3).pdf\"\(keywords)}")
        }
        // Two levels: top category, then sub category.
        var tops: [String: [String]] = [:]
        var topOrder: [String] = []
        for key in order {
            let parts = key.split(separator: "/").map(String.init)
            if tops[parts[0]] == nil { topOrder.append(parts[0]) }
            tops[parts[0], default: []].append(
                "{\"id\": \(JSONLiteral.string(parts[1])), \"title\": \(JSONLiteral.string(parts[1].capitalized + " Reports")), \"children\": ["
                    + categories[key]!.joined(separator: ", ") + "]}")
        }
        let json = "{\"id\": \"root\", \"title\": \"All Reports\", \"children\": ["
            + topOrder.map { "{\"id\": \(JSONLiteral.string($0)), \"title\": \(JSONLiteral.string($0.capitalized)), \"children\": [" + tops[$0]!.joined(separator: ", ") + "]}" }
                .joined(separator: ", ") + "]}\n"
        try Data(json.utf8).write(to: URL(fileURLWithPath: datasource))
    }

    func tree() throws -> ReportTree { try LibraryLoader.load(datasource, options: LibraryLoadOptions(checkFiles: false)) }

    func remove() {
        try? FileManager.default.removeItem(atPath: folder)  // a scratch folder: gone or not, the test is over
        if store == .postgres {
            for name in ["library", "clean", "other"] { removeIndex(otherIndexPath(name)) }
        }
    }
}

/// Every row of the index's tables, as text, in a fixed order: what "the same rows" means.
func dumpRows(_ path: String) throws -> [String] {
    let index = try ReportIndex.open(at: path, mode: .readOnly)
    return try index.tableDump()
}

/// Where a test keeps its index.
enum TestStore: Sendable, Equatable {
    case sqlite
    case postgres

    /// The test server, from `BUBBLES_TEST_POSTGRES_URL` (scripts/test.sh starts one); nil: none.
    static let postgresURL: String? = {
        let url = ProcessInfo.processInfo.environment["BUBBLES_TEST_POSTGRES_URL"] ?? ""
        return url.isEmpty ? nil : url
    }()

    /// Drops the schema of the index at `location` and everything in it.
    static func dropSchema(_ location: String) {
        guard let place = try? PostgresLocation(location) else { return }
        let store = PostgresStore(location: place)
        _ = try? store.withConnection { c in try store.execute(c, "DROP SCHEMA IF EXISTS \(store.quotedSchema) CASCADE") }  // cleanup only
    }
}
