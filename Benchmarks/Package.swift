// swift-tools-version: 6.1
//
// Benchmarks of the Bubbles package, kept in their own package so that users of the libraries
// never build benchmark tooling. Run from this folder:
//   swift package --scratch-path ../.build-bench benchmark
// (package-benchmark's malloc interposer counts allocations; no jemalloc needed.)
import PackageDescription

// SwiftPM names a path dependency after its folder, so the root package is whatever the checkout's
// folder is called.
let root = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "main")

let package = Package(
    name: "BubblesBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "PhysicsStep",
            dependencies: [
                .product(name: "BubblePhysics", package: root),
                .product(name: "BubbleThreads", package: root),
                .product(name: "PhysicsFixtures", package: root),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "PhysicsStep",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // Where the per-body cost grows with the world (see ScalingProbe/main.swift).
        .executableTarget(
            name: "ScalingProbe",
            dependencies: [.product(name: "BubblePhysics", package: root), .product(name: "PhysicsFixtures", package: root)],
            path: "ScalingProbe"),
    ]
)
