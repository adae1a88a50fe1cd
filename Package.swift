// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Decoy",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "DecoyClient", targets: ["DecoyClient"]),
        .library(name: "Decoy", targets: ["Decoy"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        .target(
            name: "DecoyClient",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "Decoy",
            dependencies: [
                "DecoyClient",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(
            name: "DecoyClientTests",
            dependencies: ["DecoyClient", "Decoy"]
        ),
        .testTarget(
            name: "DecoyTests",
            dependencies: [
                "Decoy",
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
