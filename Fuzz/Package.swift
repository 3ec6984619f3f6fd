// swift-tools-version: 6.1
// The libFuzzer targets, one product each, in one package of their own so that the main package
// never builds fuzzing code; the modules under test are the main package's sources, reached
// through symbolic links in Sources/. One package (and one build folder, `.build-fuzz/`) compiles
// each shared module once for all five. See README.md; `scripts/fuzz.sh TARGET SECONDS` builds
// and runs one.
import PackageDescription

let package = Package(
    name: "BubblesFuzz",
    products: [
        .executable(name: "PDFReaderFuzz", targets: ["PDFReaderFuzz"]),
        .executable(name: "PageRenderFuzz", targets: ["PageRenderFuzz"]),
        .executable(name: "LibraryFuzz", targets: ["LibraryFuzz"]),
        .executable(name: "ScenarioFuzz", targets: ["ScenarioFuzz"]),
        .executable(name: "PlayMessageFuzz", targets: ["PlayMessageFuzz"]),
    ],
    targets: [
        // Hands each entry point's LLVMFuzzerTestOneInput to libFuzzer's driver.
        .target(name: "FuzzDriver"),

        // The modules under test (symbolic links to ../Sources/).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib"),
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto"),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo"),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2"),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg"),
        .systemLibrary(name: "COpenJPEG", pkgConfig: "libopenjp2"),
        .target(name: "BubbleSupport"),
        .target(name: "BubblePhysics", dependencies: ["BubbleSupport"]),
        .target(name: "BubbleDashboard", dependencies: ["BubblePhysics", "BubbleSupport"]),
        .target(name: "ReportLibrary", dependencies: ["BubbleSupport"]),
        .target(name: "BubbleScenario", dependencies: ["BubbleDashboard", "BubbleSupport", "ReportLibrary"]),
        .target(name: "PDFCore", dependencies: ["CZlib", "CLibCrypto"]),
        .target(name: "PDFMetadata", dependencies: ["PDFCore"]),
        .target(name: "PDFRender", dependencies: ["PDFCore", "CCairo", "CFreeType", "CTurboJPEG", "COpenJPEG", "CZlib"]),
        // The play server's message parser: its one source file, without the server (no Hummingbird).
        .target(name: "PlayMessage", dependencies: ["BubbleDashboard", "BubbleScenario", "BubbleSupport", "ReportLibrary"]),

        // The entry points (`scripts/fuzz.sh` names them pdf, page, library, scenario and play).
        .executableTarget(name: "PDFReaderFuzz", dependencies: ["FuzzDriver", "PDFCore", "PDFMetadata"]),
        .executableTarget(name: "PageRenderFuzz", dependencies: ["FuzzDriver", "PDFRender"]),
        .executableTarget(name: "LibraryFuzz", dependencies: ["FuzzDriver", "ReportLibrary"]),
        .executableTarget(name: "ScenarioFuzz", dependencies: ["FuzzDriver", "BubbleDashboard", "BubbleScenario", "ReportLibrary"]),
        .executableTarget(name: "PlayMessageFuzz", dependencies: ["FuzzDriver", "PlayMessage", "BubbleDashboard"]),
    ]
)
