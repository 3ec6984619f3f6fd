// The large sample datasource (Data/large.json): categories of the sizes and title shapes real
// report libraries have (ten years of monthly packs, every invoice of a year, a daily report for
// five years, 600 stores, 120 departments, identical titles, titles with no common structure, a
// weekly P&L per store with two varying fields, branches a little too many for one screen), on
// the sample library's PDFs (reports share files). The level tests, `bubbles bench levels` and
// `Renders/level-large.png` use it.

import BubbleSupport

extension SampleLibrary {
    /// The large datasource document (see the file comment). Deterministic: titles come from fixed
    /// lists and a generator seeded per category.
    public static func largeDocument() -> String {
        LargeLibrary.root().json(indent: 0) + "\n"
    }
}

enum LargeLibrary {
    static let customers = [
        "Acme Logistics", "Bergmann AG", "Café Lumière", "Delta Foods", "Eriksson & Co", "Fjord Marine", "Globex", "Hanse Textil",
        "Iberia Solar", "Jura Uhren", "Kaizen Parts", "Lumen Labs", "Møller Bygg", "Nordwind Energie", "Orion Retail",
        "Pacific Rim Trading", "Quanta Health", "Rhein Chemie", "Sakura Foods", "Tessin Bank",
    ]
    static let cities = [
        "Amsterdam", "Athens", "Barcelona", "Berlin", "Bordeaux", "Bratislava", "Brussels", "Bucharest", "Budapest",
        "Copenhagen", "Dublin", "Düsseldorf", "Edinburgh", "Frankfurt", "Gdańsk", "Geneva", "Genoa", "Göteborg",
        "Hamburg", "Helsinki", "Istanbul", "Kraków", "Köln", "Lisbon", "Ljubljana", "London", "Lyon", "Madrid",
        "Malmö", "Marseille", "Milan", "Munich", "Nantes", "Naples", "Oslo", "Paris", "Porto", "Prague", "Riga",
        "Rotterdam", "Salzburg", "Sevilla", "Sofia", "Stockholm", "Tallinn", "Turin", "València", "Vienna", "Vilnius",
        "Warsaw", "Zagreb", "Zürich",
    ]
    static let words = [
        "Strategic", "Supplier", "Review", "Pricing", "Forecast", "Liquidity", "Warehouse", "Audit", "Brand", "Customer",
        "Energy", "Fleet", "Governance", "Hiring", "Inventory", "Journey", "Knowledge", "Logistics", "Margin", "Network",
        "Outlook", "Payroll", "Quality", "Risk", "Security", "Tax", "Utilisation", "Vendor", "Workforce", "Yield", "Zero-Based",
    ]

    /// Sample-library PDFs that the large library's reports point at, in turn.
    static let pdfs = [
        "q1-2016", "q2-2016", "q3-2016", "q4-2016", "close-2016-01", "close-2016-02", "close-2016-03", "close-2016-04",
        "close-2016-05", "close-2016-06", "close-2016-07", "close-2016-08",
    ]

    /// A category of `children`.
    static func category(_ id: String, _ title: String, _ colour: String?, _ children: [DatasourceNode]) -> DatasourceNode {
        DatasourceNode(id: id, title: title, colour: colour, file: nil, children: children)
    }

    /// `n` in decimal, with leading zeros to `width` digits.
    static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }

    static func root() -> DatasourceNode {
        var pdf = 0
        // Each report takes the next of the sample PDFs, in turn.
        func report(_ id: String, _ title: String) -> DatasourceNode {
            pdf += 1
            return DatasourceNode(id: id, title: title, colour: nil, file: "reports/\(pdfs[pdf % pdfs.count]).pdf", children: [])
        }
        // Ten years of monthly packs, newest year last.
        var monthly: [DatasourceNode] = []
        for year in 2008...2017 {
            for (m, month) in MonthNames.english.enumerated() {
                monthly.append(report("close-pack-\(year)-\(pad(m + 1, 2))", "Month-End Close Pack — \(month) \(year)"))
            }
        }
        // German monthly reports, five years.
        var german: [DatasourceNode] = []
        for year in 2013...2017 {
            for (m, month) in MonthNames.german.enumerated() {
                german.append(report("monatsbericht-\(year)-\(pad(m + 1, 2))", "Monatsbericht \(month) \(year)"))
            }
        }
        // A daily report for 2 000 days from 1 January 2011 (ISO dates).
        var daily: [DatasourceNode] = []
        var (y, m, d) = (2011, 1, 1)
        for _ in 0..<2000 {
            daily.append(report("daily-sales-\(y)-\(pad(m, 2))-\(pad(d, 2))", "Daily Sales Report \(y)-\(pad(m, 2))-\(pad(d, 2))"))
            let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
            let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
            d += 1
            if d > days { d = 1; m += 1 }
            if m > 12 { m = 1; y += 1 }
        }
        // Every invoice of a year.
        var invoices: [DatasourceNode] = []
        var random = SampleRandom(seed: "invoices-2016")
        for n in 1...10_000 {
            let customer = customers[Int(random.next() % UInt64(customers.count))]
            invoices.append(report("inv-2016-\(pad(n, 5))", "Invoice INV-2016-\(pad(n, 5)) — \(customer)"))
        }
        // 600 stores, one review each.
        let stores = (101...700).map { report("store-\($0)-review", "Store \($0) Performance Review") }
        // 120 departments, each a category with two reports.
        let departments = (1...120).map { n in
            category("department-\(n)", "Department \(n)", nil, [
                report("department-\(n)-budget", "Department \(n) Budget 2017"),
                report("department-\(n)-headcount", "Department \(n) Headcount 2016"),
            ])
        }
        // 100 reports of one long shape.
        let numbered = (1...100).map { report("category-c-report-\($0)", "Report number \($0) of category C") }
        // 80 identical titles.
        let identical = (1...80).map { report("weekly-update-\(pad($0, 3))", "Weekly Update") }
        // 300 titles with no common structure.
        var wordsRandom = SampleRandom(seed: "unstructured")
        let unstructured = (1...300).map { n -> DatasourceNode in
            let count = 2 + Int(wordsRandom.next() % 3)
            let title = (0..<count).map { _ in words[Int(wordsRandom.next() % UInt64(words.count))] }.joined(separator: " ")
            return report("misc-\(pad(n, 3))", title)
        }
        // A weekly P&L for six stores, 52 weeks each: two varying fields, the store first.
        let storeWeeks = (101...106).flatMap { store in
            (1...52).map { week in report("store-\(store)-pnl-wk-\(pad(week, 2))", "Store #\(store) weekly P&L wk \(week) FY2021") }
        }
        // 52 branches, each a category with two reports: a level of circles and cards a little
        // over the screen, which pans.
        // Ids in ASCII: the cities' accented letters without their marks.
        let plain: [Character: String] = ["ü": "u", "ń": "n", "ö": "o", "ó": "o", "è": "e"]
        var branches = cities.map { city -> DatasourceNode in
            let id = city.lowercased().map { plain[$0] ?? String($0) }.joined()
            return category("branch-\(id)", city, nil, [
                report("branch-\(id)-sales", "\(city) branch sales 2017"),
                report("branch-\(id)-costs", "\(city) branch costs 2017"),
            ])
        }
        // ... and the network's own reports beside them.
        for (id, title) in [
            ("network-overview", "Branch network overview 2017"), ("openings", "Branch openings and closures 2017"),
            ("staffing", "Branch staffing 2017"), ("rents", "Branch rent review 2017"),
        ] {
            branches.append(report("branches-\(id)", title))
        }
        return category("large", "Large Library", nil, [
            category("monthly-close-packs", "Monthly Close Packs", "#1E6FD9", monthly),
            category("monatsberichte", "Monatsberichte", "#129A8A", german),
            category("daily-sales", "Daily Sales", "#E89B2C", daily),
            category("invoices-2016", "Invoices 2016", "#7A4FD1", invoices),
            category("stores", "Stores", "#D94A5B", stores),
            category("departments", "Departments", "#3BA55C", departments),
            category("category-c", "Category C", "#5AB4E0", numbered),
            category("weekly-updates", "Weekly Updates", "#C45CA8", identical),
            category("miscellaneous", "Miscellaneous", "#2F6FDB", unstructured),
            category("store-pnl", "Store P&L", "#B8722C", storeWeeks),
            category("branches", "Branches", "#0F8B8D", branches),
        ])
    }
}
