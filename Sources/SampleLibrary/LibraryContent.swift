// The content of the shipped sample library: the reports of a fictional European retail and
// services group, "Aldergrove Group", from 2016–2017.
//
// Shape requirements (checked by the generator's summary, relied on by scenarios and tests):
// a top-level `finance` branch holding a report `q1-2016`; at least four levels below the root;
// at least 30 categories and 120 reports; categories with a single child and one with 25 or more;
// titles from one word to more than eight; some non-ASCII titles, authors and keywords.

import BubbleSupport

/// The fictional company the sample reports belong to.
let companyName = "Aldergrove Group"

// MARK: - Builders

private func category(
    _ id: String, _ title: String, blurb: String, terms: [String], colour: String? = nil,
    theme: BranchTheme? = nil, authors: [String]? = nil, paper: Paper? = nil,
    currency: String? = nil, zone: String? = nil, _ children: [NodeSpec]
) -> NodeSpec {
    .category(
        CategorySpec(
            id: id, title: title, colour: colour, theme: theme, blurb: blurb, terms: terms,
            authors: authors, paper: paper, currency: currency, zone: zone, children: children))
}

private func report(
    _ id: String, _ title: String, date: Timestamp? = nil, author: String? = nil,
    subject: String? = nil, keywords: [String]? = nil, separator: String? = nil,
    extra: [String]? = nil, pages: Int? = nil, paper: Paper? = nil, currency: String? = nil,
    zone: String? = nil
) -> NodeSpec {
    .report(
        ReportSpec(
            id: id, title: title, date: date, author: author, subject: subject, keywords: keywords,
            separator: separator, extraKeywords: extra, pages: pages, paper: paper,
            currency: currency, zone: zone))
}

private func at(
    _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 9, _ minute: Int = 30, zone: String = "Z"
) -> Timestamp {
    Timestamp(year: year, month: month, day: day, hour: hour, minute: minute, second: 0, zone: zone)
}

// MARK: - The tree

/// The whole library; the root becomes the centre circle of the dashboard.
let sampleLibrarySpec: CategorySpec = {
    guard
        case .category(let root) = category(
            "root", "All Reports", blurb: "", terms: [],
            [finance, sales, operations, humanResources, itSecurity, marketing, legal, executive])
    else { fatalError("the root is a category") }
    return root
}()

private let monthlyCloseMonths: [(year: Int, month: Int)] =
    (10...12).map { (2015, $0) } + (1...12).map { (2016, $0) } + (1...12).map { (2017, $0) }

private let finance = category(
    "finance", "Finance", blurb: "Financial reporting of {title}.",
    terms: ["finance", "group reporting"], colour: "#1E6FD9", theme: financeTheme,
    [
        category(
            "financial-statements", "Financial Statements",
            blurb: "{title}: consolidated figures for \(companyName) against budget and prior year.",
            terms: ["financial statements", "consolidated", "IFRS"],
            [
                category(
                    "quarterly-results", "Quarterly Results",
                    blurb: "{title} for \(companyName), with revenue, margins and operating costs "
                        + "compared with budget and the prior year.",
                    terms: ["income statement", "quarterly results", "P&L"],
                    [
                        report(
                            "q1-2016", "Q1 2016 Income Statement", date: at(2016, 4, 21, 10, 15),
                            author: "Margaret Okafor",
                            keywords: [
                                "income statement", "Q1 2016", "revenue", "EBITDA",
                                "board pack",
                            ],
                            extra: ["board pack"], pages: 2),
                        report("q2-2016", "Q2 2016 Income Statement", extra: ["Board Pack", "Q2"]),
                        report("q3-2016", "Q3 2016 Income Statement"),
                        report("q4-2016", "Q4 2016 Income Statement"),
                        report("q1-2017", "Q1 2017 Income Statement"),
                        report("q2-2017", "Q2 2017 Income Statement"),
                        report(
                            "balance-sheet-h1-2016", "Consolidated Balance Sheet — H1 2016",
                            keywords: ["Bilanz", "balance sheet", "H1 2016"], separator: "; "),
                    ]),
                category(
                    "annual-accounts", "Annual Accounts",
                    blurb: "{title}: audited annual financial statements with notes.",
                    terms: ["annual report", "audited accounts", "year end"],
                    [
                        report("annual-report-2015", "Annual Report 2015", pages: 3),
                        report("annual-report-2016", "Annual Report 2016", pages: 3),
                        report(
                            "statutory-accounts-2016-germany",
                            "Statutory Accounts 2016: Aldergrove Deutschland GmbH",
                            author: "Jürgen Müller",
                            keywords: ["Jahresabschluss", "HGB", "GmbH", "Deutschland", "Bilanz"],
                            zone: "+01:00"),
                    ]),
                report(
                    "cash-flow-statement-fy2016", "Cash Flow Statement FY2016",
                    extra: ["year end"]),
            ]),
        category(
            "monthly-close", "Monthly Close",
            blurb: "{title}: month-end close pack with the trial balance, accruals, "
                + "reconciliations and the management accounts.",
            terms: ["month-end close", "management accounts", "reconciliation", "決算"],
            monthlyCloseMonths.map { period in
                report(
                    "close-\(period.year)-\(pad(period.month))",
                    "Month-End Close Pack — \(MonthNames.english[period.month - 1]) \(period.year)")
            }),
        category(
            "budgeting", "Budgeting & Forecasting",
            blurb: "{title}: planning figures prepared by Financial Planning & Analysis.",
            terms: ["budget", "forecast", "planning"],
            [
                category(
                    "budget-fy2017", "FY2017 Budget",
                    blurb: "{title}, as approved by the Board in December 2016.",
                    terms: ["FY2017", "budget", "approved plan"],
                    [
                        report("fy2017-budget-summary", "FY2017 Budget Summary", pages: 1),
                        report(
                            "fy2017-opex-budget-by-cost-centre",
                            "FY2017 Operating Expense Budget by Cost Centre",
                            keywords: ["budget", "opex", "cost centre", "Kostenstelle", "FY2017"]),
                        report("fy2017-capex-plan", "FY2017 Capital Expenditure Plan"),
                    ]),
                category(
                    "rolling-forecasts", "Rolling Forecasts",
                    blurb: "{title}: full-year outlook updated with actuals to date.",
                    terms: ["rolling forecast", "outlook", "Prévision"],
                    [
                        report("rolling-forecast-q2-2016", "Rolling Forecast Q2 2016"),
                        report("rolling-forecast-q3-2016", "Rolling Forecast Q3 2016"),
                        report("rolling-forecast-q4-2016", "Rolling Forecast Q4 2016"),
                    ]),
                report(
                    "opex-variance-by-cost-centre-and-region",
                    "Quarterly Variance Analysis of Operating Expenses by Cost Centre and Region",
                    keywords: [
                        "variance analysis", "operating expenses", "opex", "cost centre",
                        "region", "budget", "actuals", "DACH", "France", "UK & Ireland",
                        "Nordics", "Kostenstelle", "Prévision", "quarterly review",
                    ], pages: 3),
            ]),
        category(
            "treasury", "Treasury",
            blurb: "{title}: bank balances, facilities and short-term liquidity.",
            terms: ["treasury", "liquidity", "cash"],
            [report("weekly-cash-position", "Weekly Cash Position", pages: 1)]),
        category(
            "tax", "Tax",
            blurb: "{title}, prepared by the Group Tax team.",
            terms: ["tax", "VAT", "compliance"], authors: ["Group Tax", "Henrik Nilsson"],
            [
                report("vat-returns-summary-2016", "VAT Returns Summary 2016"),
                report("transfer-pricing-documentation-2016", "Transfer Pricing Documentation 2016"),
                report("deferred-tax-reconciliation", "Deferred Tax Reconciliation"),
            ]),
    ])

private let sales = category(
    "sales", "Sales", blurb: "{title}.", terms: ["sales"], colour: "#C2410C", theme: salesTheme,
    [
        category(
            "store-performance", "Store Performance",
            blurb: "{title}: sales, footfall and conversion against target.",
            terms: ["store performance", "scorecard"],
            [
                category(
                    "stores-emea", "Europe, Middle East & Africa",
                    blurb: "{title}: monthly store scorecard with sales, footfall, conversion "
                        + "and staffing.",
                    terms: ["EMEA", "store scorecard"],
                    [
                        category(
                            "stores-germany", "Germany",
                            blurb: "{title}: Filialbericht with sales, footfall and conversion "
                                + "against target.",
                            terms: ["Deutschland", "Filiale", "Übersicht"],
                            currency: "€", zone: "+01:00",
                            [
                                report("store-berlin-mitte", "Berlin Mitte Store Scorecard"),
                                report("store-munich-marienplatz", "München Marienplatz Store Scorecard"),
                                report("store-hamburg", "Hamburg Store Scorecard"),
                                report(
                                    "store-duesseldorf-koenigsallee",
                                    "Düsseldorf Königsallee Store Scorecard",
                                    keywords: ["Düsseldorf", "Königsallee", "Filiale", "Übersicht"],
                                    separator: "; "),
                            ]),
                        category(
                            "stores-switzerland", "Switzerland",
                            blurb: "{title}: store results for the Swiss market in CHF.",
                            terms: ["Schweiz", "Suisse", "CHF"], currency: "CHF ", zone: "+01:00",
                            [
                                report(
                                    "store-zurich-bahnhofstrasse", "Zürich Bahnhofstrasse Store Scorecard"),
                                report("store-geneva", "Genève Rive Store Scorecard"),
                            ]),
                        report(
                            "store-london-oxford-street", "London Oxford Street Store Scorecard",
                            currency: "£"),
                        report(
                            "store-paris-opera", "Paris Opéra Store Scorecard",
                            author: "Chloé Martin",
                            keywords: ["Paris", "Opéra", "magasin", "Prévision", "chiffre d'affaires"]),
                    ]),
                category(
                    "stores-north-america", "North America",
                    blurb: "{title}: store results in US and Canadian dollars.",
                    terms: ["North America", "store scorecard"], paper: .letter, currency: "$",
                    zone: "-05:00",
                    [
                        report("store-new-york-soho", "New York SoHo Store Scorecard"),
                        report("store-chicago-michigan-avenue", "Chicago Michigan Avenue Store Scorecard"),
                        report("store-toronto-eaton-centre", "Toronto Eaton Centre Store Scorecard"),
                        report("store-montreal", "Montréal Sainte-Catherine Store Scorecard"),
                        report("store-san-francisco", "San Francisco Union Square Store Scorecard"),
                        report("store-seattle", "Seattle Store Scorecard"),
                    ]),
                category(
                    "stores-asia-pacific", "Asia Pacific",
                    blurb: "{title}: store results for the Asia Pacific region.",
                    terms: ["APAC", "store scorecard"], zone: "+09:00",
                    [
                        report(
                            "store-tokyo-ginza", "Tokyo Ginza Store Scorecard",
                            author: "Kenji Watanabe",
                            keywords: ["東京", "銀座", "売上", "日本語", "store scorecard"],
                            extra: ["売上", "Japan"], currency: "¥"),
                        report("store-sydney", "Sydney Pitt Street Store Scorecard"),
                        report("store-singapore", "Singapore Orchard Road Store Scorecard"),
                    ]),
                report(
                    "store-performance-summary-2016", "Store Performance Summary 2016", pages: 3),
            ]),
        category(
            "sales-pipeline", "Sales Pipeline",
            blurb: "{title}: B2B opportunities by stage, owner and expected close date.",
            terms: ["pipeline", "B2B", "CRM"],
            [
                report("weekly-pipeline-review", "Weekly Pipeline Review"),
                report("win-loss-analysis-2016", "Win/Loss Analysis 2016"),
                report(
                    "enterprise-accounts-pipeline",
                    "Enterprise Accounts Pipeline by Stage and Owner"),
                report("key-account-review-nordics", "Key Account Review: Nordics"),
            ]),
        category(
            "sales-forecasts", "Sales Forecasts",
            blurb: "{title}: sales outlook by market and channel.",
            terms: ["sales forecast", "outlook"],
            [
                report(
                    "previsions-ventes-france-2017", "Prévisions des ventes France 2017",
                    author: "François Dubois",
                    keywords: ["Prévision", "ventes", "France", "2017", "canal", "Évaluation"]),
                report(
                    "umsatzprognose-dach-2017", "Umsatzprognose DACH 2017",
                    author: "Daniel Fischer",
                    keywords: ["Umsatzprognose", "DACH", "Übersicht", "Österreich", "Schweiz"],
                    separator: "; "),
                report("global-sales-forecast-2017", "Global Sales Forecast 2017"),
            ]),
        category(
            "commissions", "Commissions",
            blurb: "{title}: variable pay earned by the sales organisation.",
            terms: ["commissions", "incentives"],
            [
                report("commission-statements-2016", "Commission Statements 2016"),
                report("sales-incentive-plan-review-2017", "Sales Incentive Plan Review 2017"),
            ]),
    ])

private let operations = category(
    "operations", "Operations", blurb: "{title}: performance of the Group's operations.",
    terms: ["operations"], colour: "#047857", theme: operationsTheme,
    [
        category(
            "supply-chain", "Supply Chain",
            blurb: "{title}: supplier, inventory and delivery performance across the network.",
            terms: ["supply chain", "logistics", "suppliers"],
            [
                report("supplier-scorecard-2016", "Supplier Scorecard 2016"),
                report("inventory-turnover", "Inventory Turnover"),
                report(
                    "on-time-delivery-by-distribution-centre",
                    "On-Time Delivery Performance by Distribution Centre"),
                report("freight-cost-review-h2-2016", "Freight Cost Review H2 2016"),
                report("warehouse-safety-incidents", "Warehouse Safety Incidents"),
            ]),
        category(
            "facilities", "Facilities",
            blurb: "{title}: property, energy and workplace costs.",
            terms: ["facilities", "property", "workplace"],
            [
                report(
                    "zurich-office-lease-review", "Zürich Office Lease Review",
                    author: "Søren Kjær",
                    keywords: ["Zürich", "lease", "office", "Mietvertrag", "CHF"], pages: 2),
                report("energy-consumption-2016", "Energy Consumption 2016"),
                report(
                    "workplace-utilisation-study",
                    "Workplace Utilisation Study: Open-Plan Floors at Headquarters"),
            ]),
        category(
            "quality", "Quality",
            blurb: "{title}: product quality and returns.",
            terms: ["quality", "defects", "returns"],
            [
                report("defect-rates", "Defect Rates"),
                report("customer-returns-analysis-2016", "Customer Returns Analysis 2016"),
            ]),
        report(
            "operations-dashboard", "Operations Dashboard", pages: 1, paper: .a4Landscape),
    ])

private let humanResources = category(
    "human-resources", "Human Resources", blurb: "{title}: people data for \(companyName).",
    terms: ["HR", "people"], colour: "#7E22CE", theme: hrTheme,
    [
        category(
            "workforce", "Workforce",
            blurb: "{title}: workforce figures by function, country and contract type.",
            terms: ["workforce", "headcount", "FTE"],
            [
                report("headcount", "Headcount", extra: ["headcount", "monthly"], pages: 1),
                report("attrition", "Attrition"),
                report(
                    "headcount-by-department-location-type-2016-12",
                    "Headcount by Department, Location and Employment Type — December 2016",
                    pages: 3),
                report("diversity-inclusion-2016", "Diversity & Inclusion Report 2016"),
                report("absence-rates", "Absence Rates"),
            ]),
        category(
            "recruitment", "Recruitment",
            blurb: "{title}: vacancies, applications and hires.",
            terms: ["recruitment", "hiring", "talent acquisition"],
            [
                report("time-to-hire", "Time to Hire"),
                report("graduate-programme-2017-intake", "Graduate Programme 2017 Intake"),
            ]),
        category(
            "compensation-benefits", "Compensation & Benefits",
            blurb: "{title}: pay, pensions and benefits.",
            terms: ["compensation", "benefits", "reward"],
            [
                report("salary-benchmarking-2016", "Salary Benchmarking 2016"),
                report("pension-scheme-review", "Pension Scheme Review"),
                report("bonus-pool-allocation-fy2016", "Bonus Pool Allocation FY2016"),
            ]),
        category(
            "learning-development", "Learning & Development",
            blurb: "{title}: training delivered and completion rates.",
            terms: ["learning", "training"],
            [report("training-hours-by-business-unit", "Training Hours by Business Unit")]),
        report("employee-engagement-survey-2016", "Employee Engagement Survey 2016", pages: 3),
    ])

private let itSecurity = category(
    "it-security", "IT & Security", blurb: "{title}: IT services and information security.",
    terms: ["IT"], colour: "#0E7490", theme: itTheme,
    [
        category(
            "security", "Security",
            blurb: "{title}: information security posture and risk.",
            terms: ["information security", "cyber", "risk"],
            [
                category(
                    "security-incidents", "Security Incidents",
                    blurb: "{title}: security incidents by severity, cause and time to contain.",
                    terms: ["security incidents", "SOC", "phishing"],
                    [
                        report("security-incidents-q1-2016", "Security Incident Summary Q1 2016"),
                        report("security-incidents-q2-2016", "Security Incident Summary Q2 2016"),
                        report("security-incidents-q3-2016", "Security Incident Summary Q3 2016"),
                        report("security-incidents-q4-2016", "Security Incident Summary Q4 2016"),
                        report("phishing-simulation-2016", "Phishing Simulation Results 2016"),
                    ]),
                report("penetration-test-findings-2016", "Penetration Test Findings 2016"),
                report("access-review-q4-2016", "User Access Review Q4 2016"),
            ]),
        category(
            "infrastructure", "Infrastructure",
            blurb: "{title}: availability, capacity and cost of IT infrastructure.",
            terms: ["infrastructure", "data centre", "cloud"],
            [
                report("uptime", "Uptime", pages: 1),
                report("data-centre-migration-status", "Data Centre Migration Status"),
                report(
                    "cloud-spend-2017-ytd", "Cloud Spend 2017 Year to Date",
                    date: at(2017, 7, 12, 14, 5)),
                report("network-capacity-planning", "Network Capacity Planning"),
            ]),
        category(
            "it-projects", "Projects",
            blurb: "{title}: progress, budget and risks of IT change projects.",
            terms: ["projects", "PMO", "change"],
            [
                report(
                    "erp-upgrade-programme-status",
                    "ERP Upgrade Programme Status Report for the Steering Committee"),
                report("service-desk-kpis", "Service Desk KPIs"),
            ]),
    ])

private let marketing = category(
    "marketing", "Marketing", blurb: "{title}: marketing performance.",
    terms: ["marketing"], colour: "#BE185D", theme: marketingTheme,
    [
        category(
            "campaigns", "Campaigns",
            blurb: "{title}: reach, response and return on campaign spend.",
            terms: ["campaign", "ROI", "media"],
            [
                report(
                    "cafe-chain-pilot-results", "Café Chain Pilot — Results",
                    author: "Zoë Clarke",
                    keywords: ["café", "pilot", "partnership", "Évaluation", "results", "loyalty"]),
                report("spring-campaign-2016-recap", "Spring Campaign 2016 Recap"),
                report("holiday-campaign-2016-performance", "Holiday Campaign 2016 Performance"),
                report("loyalty-programme-launch", "Loyalty Programme Launch"),
                report("trade-show-roi-2016", "Trade Show ROI Analysis 2016"),
            ]),
        category(
            "digital", "Digital",
            blurb: "{title}: traffic, engagement and conversion on digital channels.",
            terms: ["digital", "web", "analytics"],
            [
                report("web-analytics-monthly", "Web Analytics Monthly"),
                report("social-media", "Social Media"),
                report("seo-audit", "SEO Audit", pages: 1),
            ]),
        category(
            "brand", "Brand",
            blurb: "{title}: brand awareness, consideration and customer advocacy.",
            terms: ["brand", "NPS", "survey"],
            [
                report("brand-health-tracker-2016", "Brand Health Tracker 2016"),
                report(
                    "nps-by-market-channel-segment",
                    "Net Promoter Score by Market, Channel and Customer Segment"),
            ]),
    ])

private let legal = category(
    "legal-compliance", "Legal & Compliance", blurb: "{title}: legal and compliance reporting.",
    terms: ["legal", "compliance"], colour: "#475569", theme: legalTheme,
    [
        category(
            "contracts", "Contracts",
            blurb: "{title}: contract obligations, renewals and exposures.",
            terms: ["contracts", "renewals", "obligations"],
            [
                report("contract-renewals-2017", "Contract Renewals Due in 2017"),
                report("supplier-contracts-register", "Supplier Contracts Register"),
                report("trademark-portfolio-review", "Trademark Portfolio Review"),
            ]),
        category(
            "regulatory", "Regulatory",
            blurb: "{title}: readiness for and compliance with regulation.",
            terms: ["regulatory", "GDPR", "policy"],
            [
                report(
                    "gdpr-readiness-assessment", "GDPR Readiness Assessment",
                    keywords: [
                        "GDPR", "DSGVO", "RGPD", "data protection", "Datenschutz",
                        "privacy", "consent", "records of processing", "DPO",
                        "data subject rights", "breach notification", "vendors",
                        "retention", "2018",
                    ],
                    separator: "; ", pages: 3),
                report("anti-bribery-training-completion", "Anti-Bribery Training Completion"),
            ]),
        category(
            "internal-audit", "Internal Audit",
            blurb: "{title}, issued by Internal Audit to the Audit Committee.",
            terms: ["internal audit", "controls", "audit committee"],
            authors: ["Internal Audit", "Catherine O'Neill", "José Núñez"],
            [
                report("internal-audit-plan-2017", "Internal Audit Plan 2017"),
                report("audit-findings-tracker", "Audit Findings Tracker"),
                report("sox-controls-testing-2016", "SOX Controls Testing 2016"),
            ]),
        category(
            "litigation", "Litigation",
            blurb: "{title}: status, exposure and provisions of open cases.",
            terms: ["litigation", "provisions"],
            [report("open-litigation-summary", "Open Litigation Summary")]),
    ])

private let executive = category(
    "executive", "Executive", blurb: "{title}: Group-level reporting for the Board.",
    terms: ["executive", "board"], colour: "#A16207", theme: executiveTheme,
    [
        category(
            "board-packs", "Board Packs",
            blurb: "{title}: papers for the Board of Directors with the CEO and CFO reports.",
            terms: ["board pack", "board meeting", "CEO report"],
            [
                report("board-pack-2016-03", "Board Pack March 2016", pages: 3),
                report("board-pack-2016-06", "Board Pack June 2016", pages: 3),
                report("board-pack-2016-09", "Board Pack September 2016", pages: 3),
                report("board-pack-2016-12", "Board Pack December 2016", pages: 3),
                report("board-pack-2017-03", "Board Pack March 2017", pages: 3),
            ]),
        report("group-kpi-dashboard", "Group KPI Dashboard", pages: 1, paper: .a4Landscape),
        report("strategy-2020", "Strategy 2020", date: at(2016, 11, 14, 16, 0)),
        report(
            "investor-day-2016", "Investor Day 2016 Presentation", date: at(2016, 9, 22, 11, 0),
            author: "Victoria Hale", pages: 3, paper: .a4Landscape),
        report("mergers-acquisitions-pipeline", "Mergers & Acquisitions Pipeline"),
    ])
