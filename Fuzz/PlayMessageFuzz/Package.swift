// swift-tools-version: 6.1
// libFuzzer target for the play server's message parser (`PlayMessageParser.parse`). Its own package
// (the sources are reached through symbolic links; the parser's one file without the server, so
// no Hummingbird) so that the main package never builds fuzzing code. See ../README.md;
// `scripts/fuzz.sh play SECONDS` builds and runs it.
import PackageDescription

let package = Package(
    name: "PlayMessageFuzz",
    targets: [
        .target(name: "FuzzDriver"),
        .target(name: "BubbleSupport"),
        .target(name: "BubblePhysics", dependencies: ["BubbleSupport"]),
        .target(name: "BubbleDashboard", dependencies: ["BubblePhysics", "BubbleSupport"]),
        .target(name: "ReportLibrary", dependencies: ["BubbleSupport"]),
        .target(name: "BubbleScenario", dependencies: ["BubbleDashboard", "BubbleSupport", "ReportLibrary"]),
        .target(name: "PlayMessage", dependencies: ["BubbleDashboard", "BubbleScenario", "BubbleSupport", "ReportLibrary"]),
        .executableTarget(name: "PlayMessageFuzz", dependencies: ["FuzzDriver", "PlayMessage", "BubbleDashboard"]),
    ]
)
