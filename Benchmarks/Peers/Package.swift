// swift-tools-version:6.2
// Swift servers a user might pick instead of Decoy for a local stub server, each answering the
// same static JSON as ServerBench and the raw libmicrohttpd server, so that the server benchmark
// (../scripts/server_bench.py) can put them in one table. A package of their own, so that the
// in-process benchmarks never build SwiftNIO.
import PackageDescription

let package = Package(
    name: "DecoyBenchmarkPeers",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.0"),
    ],
    targets: [
        .executableTarget(
            name: "SwiftPeer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
