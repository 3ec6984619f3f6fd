// The sample library's branch themes: for each top-level branch, the KPIs, charts, table rows,
// authors and keyword pool its reports draw from (the tree itself is in LibraryContent.swift).

let financeTheme = BranchTheme(
    kpis: [
        .init(label: "Revenue", kind: .money, range: 38_000...52_000),
        .init(label: "EBITDA", kind: .money, range: 4_200...7_800),
        .init(label: "EBITDA margin", kind: .percent, range: 9...16),
        .init(label: "Free cash flow", kind: .money, range: 1_100...3_900),
    ],
    chartTitles: [
        "Revenue by month ({unit})", "Operating expenses by month ({unit})",
        "Gross profit by month ({unit})",
    ],
    series: ("Actual", "Budget"),
    lineItems: [
        "Retail stores", "E-commerce", "Wholesale", "Franchise partners", "Corporate sales",
        "Concessions", "Outlet stores", "Marketplaces", "Services and repairs", "Licensing",
        "Gift card breakage",
    ],
    tableKind: .money, tableRange: 300...9_500, itemHeading: "Business line",
    authors: [
        "Group Finance", "Margaret Okafor", "Jürgen Müller", "Financial Planning & Analysis",
        "Priya Raman", "Thomas Whitfield",
    ],
    keywordPool: [
        "P&L", "EBITDA", "variance", "budget", "actuals", "cost centre", "Bilanz", "Prévision",
        "cash flow", "working capital", "accruals", "IFRS", "group reporting",
    ])

let salesTheme = BranchTheme(
    kpis: [
        .init(label: "Net sales", kind: .money, range: 1_800...9_600),
        .init(label: "Footfall", kind: .count, range: 42_000...310_000),
        .init(label: "Conversion", kind: .percent, range: 14...31),
        .init(label: "Average basket", kind: .decimal, range: 28...96),
    ],
    chartTitles: [
        "Net sales by month ({unit})", "Like-for-like sales by month ({unit})",
        "Orders by month ({unit})",
    ],
    series: ("Actual", "Target"),
    lineItems: [
        "Apparel", "Footwear", "Accessories", "Home", "Electronics", "Beauty", "Sports",
        "Gift cards", "Services", "Online click & collect", "Clearance",
    ],
    tableKind: .money, tableRange: 80...2_400, itemHeading: "Category",
    authors: [
        "Sales Operations", "Laura Bianchi", "Daniel Fischer", "Chloé Martin", "Retail Analytics",
        "Marcus Lindqvist",
    ],
    keywordPool: [
        "net sales", "like-for-like", "footfall", "conversion", "basket size", "target",
        "売上", "retail", "store", "region", "Umsatz", "Übersicht",
    ])

let operationsTheme = BranchTheme(
    kpis: [
        .init(label: "On-time delivery", kind: .percent, range: 88...99),
        .init(label: "Inventory days", kind: .decimal, range: 31...64),
        .init(label: "Cost per order", kind: .decimal, range: 3.2...7.9),
        .init(label: "Orders shipped", kind: .count, range: 120_000...480_000),
    ],
    chartTitles: [
        "Orders shipped by month ({unit})", "Logistics cost by month ({unit})",
        "Units handled by month ({unit})",
    ],
    series: ("Actual", "Plan"),
    lineItems: [
        "Rotterdam DC", "Leipzig DC", "Lyon DC", "Manchester DC", "Milano DC", "Poznań DC",
        "Barcelona DC", "Göteborg DC", "Returns centre", "Cross-dock Antwerp",
    ],
    tableKind: .count, tableRange: 1_200...48_000, itemHeading: "Site",
    authors: [
        "Operations Excellence", "Søren Kjær", "Hannah Schultz", "Pieter de Vries",
        "Supply Chain Planning",
    ],
    keywordPool: [
        "logistics", "warehouse", "supply chain", "lead time", "OTIF", "inventory", "Lager",
        "suppliers", "lean", "safety", "capacity",
    ])

let hrTheme = BranchTheme(
    kpis: [
        .init(label: "Headcount", kind: .count, range: 5_800...7_200),
        .init(label: "Attrition", kind: .percent, range: 8...17),
        .init(label: "Open roles", kind: .count, range: 90...340),
        .init(label: "Days to hire", kind: .decimal, range: 29...58),
    ],
    chartTitles: ["Headcount by month", "Full-time equivalents by month"],
    series: ("Actual", "Plan"),
    lineItems: [
        "Stores", "Distribution", "Finance", "Sales", "Marketing", "IT", "Legal",
        "Human Resources", "Customer Service", "Head Office", "Procurement",
    ],
    tableKind: .count, tableRange: 40...2_600, itemHeading: "Function",
    authors: [
        "People & Culture", "Anaïs Lefèvre", "Kwame Mensah", "Isabel Ortega", "HR Analytics",
    ],
    keywordPool: [
        "headcount", "attrition", "FTE", "recruitment", "engagement", "diversity", "Personal",
        "compensation", "workforce planning", "talent", "learning",
    ])

let itTheme = BranchTheme(
    kpis: [
        .init(label: "Availability", kind: .percent, range: 99.1...99.98),
        .init(label: "Incidents", kind: .count, range: 40...260),
        .init(label: "Hours to resolve", kind: .decimal, range: 2.1...9.8),
        .init(label: "Tickets closed", kind: .count, range: 3_200...9_800),
    ],
    chartTitles: [
        "Tickets by month ({unit})", "Incidents by month ({unit})",
        "Infrastructure cost by month ({unit})",
    ],
    series: ("Actual", "Target"),
    lineItems: [
        "E-mail and collaboration", "ERP", "CRM", "Web shop", "Point of sale", "VPN",
        "Data warehouse", "Identity and access", "Network", "Service desk", "Backup",
    ],
    tableKind: .count, tableRange: 12...1_900, itemHeading: "Service",
    authors: [
        "IT Service Management", "Björn Åkesson", "Rahul Menon", "Information Security Office",
        "Claire Dubois",
    ],
    keywordPool: [
        "availability", "SLA", "incidents", "security", "cloud", "infrastructure", "ITIL",
        "patching", "Sicherheit", "vulnerabilities", "service desk",
    ])

let marketingTheme = BranchTheme(
    kpis: [
        .init(label: "Reach", kind: .count, range: 1_200_000...9_800_000),
        .init(label: "Leads", kind: .count, range: 8_000...41_000),
        .init(label: "Cost per lead", kind: .decimal, range: 6.5...24),
        .init(label: "Net Promoter Score", kind: .decimal, range: 21...48),
    ],
    chartTitles: [
        "Campaign spend by month ({unit})", "Leads by month ({unit})",
        "Web sessions by month ({unit})",
    ],
    series: ("Actual", "Plan"),
    lineItems: [
        "Search", "Social", "E-mail", "Display", "Television", "Print", "Events",
        "Partnerships", "Affiliates", "Out of home", "Sponsorship",
    ],
    tableKind: .money, tableRange: 25...1_400, itemHeading: "Channel",
    authors: [
        "Brand & Communications", "Zoë Clarke", "François Dubois", "Digital Marketing",
        "Elena Petrova",
    ],
    keywordPool: [
        "campaign", "brand", "digital", "leads", "ROI", "NPS", "Marke", "social media",
        "customer journey", "Évaluation", "media mix",
    ])

let legalTheme = BranchTheme(
    kpis: [
        .init(label: "Open matters", kind: .count, range: 18...74),
        .init(label: "Contracts reviewed", kind: .count, range: 140...520),
        .init(label: "Training completion", kind: .percent, range: 81...99),
        .init(label: "Overdue findings", kind: .count, range: 2...19),
    ],
    chartTitles: [
        "Contracts reviewed by month ({unit})", "Open matters by month ({unit})",
        "External counsel spend by month ({unit})",
    ],
    series: ("Actual", "Target"),
    lineItems: [
        "Commercial contracts", "Employment", "Data protection", "Intellectual property",
        "Competition", "Anti-bribery", "Property", "Litigation", "Corporate", "Consumer law",
    ],
    tableKind: .count, tableRange: 3...240, itemHeading: "Area",
    authors: [
        "Group Legal", "José Núñez", "Internal Audit", "Catherine O'Neill", "Compliance Office",
    ],
    keywordPool: [
        "compliance", "contracts", "risk", "audit", "regulation", "GDPR", "Datenschutz",
        "controls", "policy", "governance",
    ])

let executiveTheme = BranchTheme(
    kpis: [
        .init(label: "Group revenue", kind: .money, range: 150_000...190_000),
        .init(label: "EBITDA margin", kind: .percent, range: 10...15),
        .init(label: "Active customers", kind: .count, range: 2_400_000...3_100_000),
        .init(label: "Employees", kind: .count, range: 6_100...7_000),
    ],
    chartTitles: ["Group revenue by month ({unit})", "Operating profit by month ({unit})"],
    series: ("Actual", "Prior year"),
    lineItems: [
        "DACH", "France", "UK & Ireland", "Nordics", "Benelux", "Iberia", "Italy",
        "North America", "Asia Pacific", "Online",
    ],
    tableKind: .money, tableRange: 4_000...38_000, itemHeading: "Region",
    authors: ["Office of the CEO", "Victoria Hale", "Strategy Office", "Jürgen Müller"],
    keywordPool: [
        "board", "strategy", "KPI", "group", "investors", "outlook", "Übersicht", "governance",
        "M&A", "guidance",
    ])
