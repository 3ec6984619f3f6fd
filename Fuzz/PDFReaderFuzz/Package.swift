// swift-tools-version: 6.1
// libFuzzer target for the PDF metadata reader. Its own package (the module's sources are
// reached through symbolic links) so that the main package never builds fuzzing code.
// See README.md for the commands.
import PackageDescription

let package = Package(
    name: "PDFReaderFuzz",
    targets: [
        .target(name: "FuzzDriver"),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib"),
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto"),
        .target(name: "PDFCore", dependencies: ["CZlib", "CLibCrypto"]),
        .target(name: "PDFMetadata", dependencies: ["PDFCore"]),
        .executableTarget(name: "PDFReaderFuzz", dependencies: ["FuzzDriver", "PDFCore", "PDFMetadata"]),
    ]
)
