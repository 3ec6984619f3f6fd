// swift-tools-version: 6.1
// libFuzzer target for the scenario-file parser (`Scenario.parse`). Its own package (the modules'
// sources are reached through symbolic links) so that the main package never builds fuzzing code.
// See ../README.md; `scripts/fuzz.sh scenario SECONDS` builds and runs it.
import PackageDescription

let package = Package(
    name: "ScenarioFuzz",
    dependencies: [
        // The library index (BubbleScenario reads PDF metadata through it).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(name: "FuzzDriver"),
        .target(name: "BubbleSupport"),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib"),
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto"),
        .target(name: "BubblePhysics", dependencies: ["BubbleSupport"]),
        .target(name: "BubbleDashboard", dependencies: ["BubblePhysics", "BubbleSupport"]),
        .target(name: "ReportLibrary", dependencies: ["BubbleSupport"]),
        .target(name: "PDFCore", dependencies: ["CZlib", "CLibCrypto"]),
        .target(name: "PDFMetadata", dependencies: ["PDFCore"]),
        .target(
            name: "ReportIndex",
            dependencies: ["ReportLibrary", "PDFCore", "PDFMetadata", "CLibCrypto", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(
            name: "BubbleScenario", dependencies: ["BubbleDashboard", "BubbleSupport", "ReportLibrary", "PDFCore", "PDFMetadata", "ReportIndex"]),
        .executableTarget(name: "ScenarioFuzz", dependencies: ["FuzzDriver", "BubbleDashboard", "BubbleScenario", "ReportLibrary"]),
    ]
)
