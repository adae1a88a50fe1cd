// swift-tools-version:6.1
// Benchmarks live in their own package so that building and testing Decoy never builds the
// benchmark harness. Run them all with ../scripts/benchmarks.
import PackageDescription

let package = Package(
    name: "DecoyBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Decoy", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "InProcess",
            dependencies: [
                .product(name: "Decoy", package: "Decoy"),
                .product(name: "DecoyClient", package: "Decoy"),
                .product(name: "DecoyStubFiles", package: "Decoy"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/InProcess",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Instructions",
            dependencies: [
                .product(name: "Decoy", package: "Decoy"),
                .product(name: "DecoyClient", package: "Decoy"),
                .product(name: "DecoyStubFiles", package: "Decoy"),
                "RecordedAPI",
            ],
            path: "Instructions"
        ),
        // What the timed benchmarks share.
        .target(name: "Timing", path: "Timing"),
        // The API the recording benchmark records, and its stubs written by hand.
        .target(
            name: "RecordedAPI",
            dependencies: [.product(name: "Decoy", package: "Decoy")],
            path: "RecordedAPI"
        ),
        .executableTarget(
            name: "RecordingBench",
            dependencies: [
                "Timing",
                .product(name: "Decoy", package: "Decoy"),
                .product(name: "DecoyClient", package: "Decoy"),
                .product(name: "DecoyServer", package: "Decoy"),
                .product(name: "DecoyStubFiles", package: "Decoy"),
                "RecordedAPI",
            ],
            path: "Recording"
        ),
        .executableTarget(
            name: "RemoteBench",
            dependencies: [
                "Timing",
                .product(name: "Decoy", package: "Decoy"),
                .product(name: "DecoyServer", package: "Decoy"),
                .product(name: "DecoyRemote", package: "Decoy"),
            ],
            path: "Remote"
        ),
        .executableTarget(
            name: "DownloadBench",
            dependencies: [.product(name: "DecoyClient", package: "Decoy")],
            path: "Download"
        ),
        .executableTarget(
            name: "ServerBench",
            dependencies: [
                .product(name: "Decoy", package: "Decoy"),
                .product(name: "DecoyServer", package: "Decoy"),
            ],
            path: "Servers/ServerBench"
        ),
    ],
    swiftLanguageModes: [.v6]
)
