// swift-tools-version: 6.1
// libFuzzer target for the datasource loader (`LibraryLoader.parse`). Its own package (the
// module's sources are reached through a symbolic link) so that the main package never builds
// fuzzing code. See ../README.md; `scripts/fuzz.sh library SECONDS` builds and runs it.
import PackageDescription

let package = Package(
    name: "LibraryFuzz",
    targets: [
        .target(name: "FuzzDriver"),
        .target(name: "BubbleSupport"),
        .target(name: "ReportLibrary", dependencies: ["BubbleSupport"]),
        .executableTarget(name: "LibraryFuzz", dependencies: ["FuzzDriver", "ReportLibrary"]),
    ]
)
