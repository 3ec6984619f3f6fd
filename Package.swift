// swift-tools-version: 6.1
//
// The headless core of a bubble-dashboard report browser.
//
// Module map (see docs/development.md, "Modules" and "Architecture notes"):
//   BubbleSupport  – the helpers several modules share: FNV-1a, SplitMix64, deterministic math, JSON
//                    literals, hex, edit distance, month names (standard library only, imports nothing)
//   BubblePhysics  – deterministic spring/collision world (standard library only; re-exports BubbleSupport)
//   BubbleThreads  – a small worker pool that runs the physics step's row bands in parallel
//   BubbleDashboard – navigation, transitions and the scene, on the physics world (standard library only)
//   BubbleRender   – draws a scene with Cairo to PNG and SVG, all text through Pango
//   ReportLibrary  – the JSON report tree: positioned JSON parser, loading, validation (Foundation)
//   PDFCore        – the PDF file layer both PDF readers build on: bytes, lexer, objects,
//                    cross-references, repair, security, filters, page tree (zlib, libcrypto)
//   PDFMetadata    – poppler-free PDF metadata reader on PDFCore, with a fast path for plain files
//   PDFRender      – PDF pages drawn with Cairo (FreeType fonts, libjpeg-turbo images)
//   ReportIndex    – the library index: SQLite (GRDB) database of PDF metadata, FTS5 search, facets
//   IndexThumbnails – first-page thumbnails of the indexed PDFs, drawn with PDFRender into the index
//   DashboardLibrary – datasource + index → dashboard tree (with PDF metadata), the report finder over the index
//   BubbleScenario – scenario and settings files (Foundation)
//   BubbleExport   – frame sequences of a scenario: parallel rendering, manifest, contact sheet, review page
//   SampleLibrary  – the deterministic generator of the shipped sample data (Cairo's PDF surface)
//   BubblePlay     – the live server of `bubbles play` (Hummingbird HTTP + WebSocket)
//   BubblesCLI     – the `bubbles` command-line tool
//   DeterminismPins – the pinned state hashes and pixels and the code that computes them, checked by
//                    the debug tests and by `determinism-check` in release (scripts/test.sh)
//
// Benchmarks live in their own package under Benchmarks/ and in `bubbles bench`
// (Sources/BubblesCLI/Bench/), so that users of these libraries never build benchmark tooling; their
// fixtures are the PhysicsFixtures and RenderFixtures targets, outside the product modules.
import PackageDescription

let package = Package(
    name: "Bubbles",
    products: [
        .library(name: "BubbleSupport", targets: ["BubbleSupport"]),
        .library(name: "BubblePhysics", targets: ["BubblePhysics"]),
        .library(name: "BubbleThreads", targets: ["BubbleThreads"]),
        .library(name: "ReportLibrary", targets: ["ReportLibrary"]),
        .library(name: "BubbleDashboard", targets: ["BubbleDashboard"]),
        .library(name: "BubbleRender", targets: ["BubbleRender"]),
        .library(name: "PDFCore", targets: ["PDFCore"]),
        .library(name: "PDFMetadata", targets: ["PDFMetadata"]),
        .library(name: "PDFRender", targets: ["PDFRender"]),
        .library(name: "ReportIndex", targets: ["ReportIndex"]),
        // The standard physics benchmark scene, for the Benchmarks package (not part of the engine).
        .library(name: "PhysicsFixtures", targets: ["PhysicsFixtures"]),
        .executable(name: "bubbles", targets: ["BubblesCLI"]),
        .executable(name: "make-sample-library", targets: ["SampleLibraryTool"]),
        // The pinned state hashes and pixels checked in the configuration it is built in:
        // scripts/test.sh builds it in release beside `bubbles` (not part of the engine or the CLI).
        .executable(name: "determinism-check", targets: ["DeterminismCheck"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // `swift package generate-documentation` for the DocC catalogs (scripts/docs.sh).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // Already under Hummingbird; named for the server's own ServiceGroup (a graceful stop).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // SQLite for the library index (Debian's libsqlite3-dev, FTS5 built in).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // PostgreSQL for a library index shared by many machines (`--index postgres://…`).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // TLS to the PostgreSQL server (already under postgres-nio; named for its TLS configuration).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // System libraries. `scripts/deps.sh` installs the Debian packages named here.
        .systemLibrary(
            name: "CCairo", pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]),
        // Text: Pango on Cairo (HarfBuzz shaping, FriBidi, line breaking) and fontconfig for the
        // pinned fonts.
        .systemLibrary(
            name: "CPango", pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        // The PNG encoder's compression: whole-buffer DEFLATE, several times zlib's speed.
        .systemLibrary(
            name: "CDeflate", pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(
            name: "CLibCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        // PDF pages: embedded fonts (Type 1, CFF, TrueType, OpenType) through FreeType, drawn by
        // Cairo's FreeType backend; fontconfig finds the free substitutes of the standard-14 fonts.
        .systemLibrary(
            name: "CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev", "libfontconfig-dev", "libcairo2-dev"])]),
        // PDF images: DCTDecode (JPEG) through libjpeg-turbo's TurboJPEG API.
        .systemLibrary(
            name: "CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        // PDF images: JPXDecode (JPEG 2000) through OpenJPEG.
        .systemLibrary(
            name: "COpenJPEG", pkgConfig: "libopenjp2",
            providers: [.apt(["libopenjp2-7-dev"])]),

        // Libraries.
        // libm: `floor` and `sqrt` are called from the standard library's Double; without it a
        // package that uses only BubbleSupport or BubblePhysics (no Foundation) fails to link.
        // BubbleSupport imports nothing but the standard library; BubblePhysics and ReportLibrary
        // re-export it (their users reached FNV1a64, SplitMix64 and JSONLiteral through them).
        .target(name: "BubbleSupport", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        .target(
            name: "BubblePhysics", dependencies: ["BubbleSupport"],
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        .target(name: "BubbleDashboard", dependencies: ["BubblePhysics", "BubbleSupport"]),
        // A small thread pool that runs the physics step's parallel phases (World.executor).
        .target(name: "BubbleThreads", dependencies: ["BubblePhysics"]),
        .target(name: "ReportLibrary", dependencies: ["BubbleSupport"]),
        .target(name: "PDFCore", dependencies: ["CZlib", "CLibCrypto"]),
        .target(name: "PDFMetadata", dependencies: ["PDFCore"]),
        // PDF pages drawn with Cairo: content-stream interpreter, graphics state, fonts, images,
        // shadings, transparency, behind a small drawing-device protocol.
        .target(name: "PDFRender", dependencies: ["PDFCore", "CCairo", "CFreeType", "CTurboJPEG", "COpenJPEG", "CZlib"]),
        .target(name: "BubbleRender", dependencies: ["BubbleDashboard", "BubbleSupport", "CCairo", "CPango", "CDeflate"]),
        .target(name: "SampleLibrary", dependencies: ["BubbleSupport", "CCairo", "ReportLibrary"]),
        // The library index: per-report PDF metadata by size, time and content hash, FTS5 search in any
        // script, keyword facets; incremental and crash-safe. SHA-256 for content hashes (libcrypto).
        // Two stores behind one API: an SQLite file (GRDB, the default) or a PostgreSQL database
        // (postgres-nio), chosen by the index location.
        .target(
            name: "ReportIndex",
            dependencies: [
                "ReportLibrary", "PDFCore", "PDFMetadata", "CLibCrypto",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // First-page thumbnails drawn with PDFRender and stored in the index (the index itself
        // stores and reads PNG bytes only, and never depends on a renderer).
        .target(name: "IndexThumbnails", dependencies: ["ReportIndex", "PDFRender", "PDFCore", "CCairo"]),
        // The report library as the dashboard sees it: datasource + index → dashboard tree, and
        // the dashboard's report finder over the index.
        .target(name: "DashboardLibrary", dependencies: ["BubbleDashboard", "BubbleRender", "ReportLibrary", "PDFCore", "PDFMetadata", "PDFRender", "ReportIndex", "CCairo"]),
        .target(name: "BubbleScenario", dependencies: ["BubbleDashboard", "BubbleSupport", "ReportLibrary"]),
        .target(name: "BubbleExport", dependencies: ["BubbleScenario", "DashboardLibrary", "BubbleRender", "BubbleDashboard", "BubbleSupport", "ReportLibrary"]),
        // The live server of `bubbles play`: sessions, message parser and recorder are plain types
        // (testable without sockets); PlayServer puts them on Hummingbird's HTTP and WebSocket.
        .target(
            name: "BubblePlay",
            dependencies: [
                "BubbleScenario", "DashboardLibrary", "BubbleRender", "BubbleDashboard", "BubbleSupport", "ReportLibrary", "ReportIndex",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The page, its script and its style sheet, embedded in the binary (PlayAssets).
            resources: [.embedInCode("Page/play.html"), .embedInCode("Page/play.js"), .embedInCode("Page/play.css")]),

        // Benchmark fixtures, apart from the product modules: the standard physics scene (used by
        // `bubbles bench`, the Benchmarks package and the tests) and the hand-made render scenes
        // with the render pipeline's timer (used by `bubbles bench render` and the tests).
        .target(name: "PhysicsFixtures", dependencies: ["BubblePhysics", "BubbleSupport"]),
        .target(name: "RenderFixtures", dependencies: ["BubbleRender", "BubbleDashboard"]),
        // The pinned results that must be the same bits in debug and release builds (physics
        // scenes, the shipped scenarios, the page renderer's golden pixels) and the code that
        // computes them, in one place: the debug tests check them, and so does
        // `determinism-check` built in release.
        .target(
            name: "DeterminismPins",
            dependencies: [
                "BubblePhysics", "BubbleThreads", "BubbleSupport", "PhysicsFixtures", "BubbleDashboard", "BubbleScenario",
                "DashboardLibrary", "ReportLibrary", "PDFRender",
            ]),

        // The load-testing client of the play server (loopback pages and misbehaving clients, and
        // the raw WebSocket client the tests use): `bubbles play-client`, scripts/soak-play.sh and
        // the tests; never the server itself.
        .target(name: "PlayLoadClient", dependencies: ["BubbleSupport"]),

        // Executables.
        .executableTarget(
            name: "BubblesCLI",
            dependencies: [
                "BubblePhysics", "BubbleSupport", "BubbleThreads", "BubbleDashboard", "BubbleRender", "BubbleScenario", "DashboardLibrary", "BubbleExport",
                "ReportLibrary", "PDFCore", "PDFMetadata", "PDFRender", "BubblePlay", "ReportIndex", "IndexThumbnails", "SampleLibrary",
                "PhysicsFixtures", "RenderFixtures", "PlayLoadClient", "CCairo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "DeterminismCheck", dependencies: ["DeterminismPins"]),
        .executableTarget(
            name: "SampleLibraryTool",
            dependencies: [
                "SampleLibrary",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // Tests.
        .testTarget(name: "BubbleSupportTests", dependencies: ["BubbleSupport"]),
        // What several test targets share (package root, scratch folders, the seeded random
        // generator, Chromium/DevTools and loopback WebSocket helpers); only test targets use it.
        .target(name: "TestSupport", dependencies: ["BubblePhysics", "PlayLoadClient"], path: "Tests/TestSupport"),
        .testTarget(
            name: "BubblePhysicsTests",
            dependencies: [
                "BubblePhysics", "BubbleThreads", "PhysicsFixtures", "DeterminismPins", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(name: "ReportLibraryTests", dependencies: ["ReportLibrary", "SampleLibrary", "TestSupport"]),
        .testTarget(
            name: "ReportIndexTests",
            dependencies: [
                "ReportIndex", "IndexThumbnails", "ReportLibrary", "PDFCore", "PDFMetadata", "SampleLibrary", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
        .testTarget(name: "PDFMetadataTests", dependencies: ["PDFCore", "PDFMetadata", "CZlib", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "PDFRenderTests", dependencies: ["PDFRender", "PDFCore", "PDFMetadata", "DeterminismPins", "TestSupport", "CTurboJPEG"], exclude: ["Fixtures"]),
        .testTarget(name: "BubbleRenderTests", dependencies: ["BubbleRender", "RenderFixtures", "TestSupport"], exclude: ["References"]),
        .testTarget(
            name: "BubbleDashboardTests",
            dependencies: [
                "BubbleDashboard", "BubblePhysics", "BubbleScenario", "DashboardLibrary", "DeterminismPins", "ReportIndex", "ReportLibrary", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(name: "CLITests", dependencies: ["BubblesCLI", "BubblePhysics", "ReportIndex", "TestSupport"]),
        .testTarget(name: "BubbleExportTests", dependencies: ["BubbleExport", "BubbleRender", "DashboardLibrary", "RenderFixtures", "TestSupport"]),
        .testTarget(
            name: "BubblePlayTests",
            dependencies: [
                "BubblePlay", "BubbleExport", "BubbleScenario", "DashboardLibrary", "BubbleDashboard", "BubbleRender", "ReportLibrary",
                "BubblePhysics", "PlayLoadClient", "TestSupport",
            ]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["BubbleDashboard", "BubbleRender", "BubbleScenario", "DashboardLibrary", "ReportLibrary", "TestSupport"],
            exclude: ["References"]),
        // The Swift code shown in README.md and the DocC articles, compiled and run, and the
        // check that the documents show exactly these files.
        .testTarget(
            name: "ExamplesTests",
            dependencies: [
                "BubblePhysics", "BubbleDashboard", "BubbleRender", "BubbleScenario", "DashboardLibrary", "PDFMetadata", "PDFRender",
                "ReportLibrary", "ReportIndex", "TestSupport",
            ],
            path: "Examples"),
    ]
)
