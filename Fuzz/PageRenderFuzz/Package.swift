// swift-tools-version: 6.1
// libFuzzer target for the page renderer (the content-stream interpreter, fonts, images, shadings
// on a Cairo image). Its own package (the modules' sources are reached through symbolic links) so
// that the main package never builds fuzzing code. See README.md for the commands.
import PackageDescription

let package = Package(
    name: "PageRenderFuzz",
    targets: [
        .target(name: "FuzzDriver"),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib"),
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto"),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo"),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2"),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg"),
        .systemLibrary(name: "COpenJPEG", pkgConfig: "libopenjp2"),
        .target(name: "PDFCore", dependencies: ["CZlib", "CLibCrypto"]),
        .target(name: "PDFRender", dependencies: ["PDFCore", "CCairo", "CFreeType", "CTurboJPEG", "COpenJPEG", "CZlib"]),
        .executableTarget(name: "PageRenderFuzz", dependencies: ["FuzzDriver", "PDFRender"]),
    ]
)
