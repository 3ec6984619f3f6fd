// swift-tools-version: 6.1
// libFuzzer target for the scenario-file parser (`Scenario.parse`). Its own package (the modules'
// sources are reached through symbolic links) so that the main package never builds fuzzing code.
// See ../README.md; `scripts/fuzz.sh scenario SECONDS` builds and runs it.
import PackageDescription

let package = Package(
    name: "ScenarioFuzz",
    targets: [
        .target(name: "FuzzDriver"),
        .target(name: "BubbleSupport"),
        .target(name: "BubblePhysics", dependencies: ["BubbleSupport"]),
        .target(name: "BubbleDashboard", dependencies: ["BubblePhysics", "BubbleSupport"]),
        .target(name: "ReportLibrary", dependencies: ["BubbleSupport"]),
        .target(name: "BubbleScenario", dependencies: ["BubbleDashboard", "BubbleSupport", "ReportLibrary"]),
        .executableTarget(name: "ScenarioFuzz", dependencies: ["FuzzDriver", "BubbleDashboard", "BubbleScenario", "ReportLibrary"]),
    ]
)
