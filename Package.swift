// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Decoy",
    // The floors of what an app and its unit tests link: `Duration` and `Clock` need iOS 16 and
    // macOS 13; scripts/check-app-closure keeps anything newer out.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "DecoyClient", targets: ["DecoyClient"]),
        .library(name: "Decoy", targets: ["Decoy"]),
        .library(name: "DecoyStubFiles", targets: ["DecoyStubFiles"]),
        .library(name: "DecoyServer", targets: ["DecoyServer"]),
        .library(name: "DecoyTesting", targets: ["DecoyTesting"]),
        .library(name: "DecoyServerTesting", targets: ["DecoyServerTesting"]),
        .library(name: "DecoyRemote", targets: ["DecoyRemote"]),
        .library(name: "DecoyOpenAPI", targets: ["DecoyOpenAPI"]),
        .library(name: "DecoyOpenAPITesting", targets: ["DecoyOpenAPITesting"]),
        .executable(name: "decoy", targets: ["DecoyCommand"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.2.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    ],
    targets: [
        .target(
            name: "DecoyClient",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                // Its server-sent events parser, pure Swift on swift-http-types; mattt/EventSource
                // 1.1.1, the version to be had here, does not build on Linux (URLSession.bytes).
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        .target(
            name: "Decoy",
            dependencies: [
                "DecoyClient",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // Already in DecoyClient's closure: webhooks log their failures.
                .product(name: "Logging", package: "swift-log"),
                // Already in DecoyClient's closure: a proxy reads a relayed event stream with its parser.
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                // A request's header fields parsed once, on first read, without a lock per request.
                .product(name: "Atomics", package: "swift-atomics"),
            ]
        ),
        // Stub files, JSON and YAML, apart from the engine: only who loads a folder links Yams.
        .target(
            name: "DecoyStubFiles",
            dependencies: [
                "Decoy",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        .target(
            name: "DecoyServer",
            dependencies: [
                "Decoy",
                "DecoyStubFiles",
                "CMicroHTTPD",
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "Logging", package: "swift-log"),
                // Certificates made at start-up for HTTPS; the server side only, so no app links them.
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            // The dashboard's page, compiled into the binary as bytes (`PackageResources`), so that
            // `decoy serve` stays one file that works wherever it is installed, with no bundle beside it.
            resources: [
                .embedInCode("Dashboard/dashboard.html"), .embedInCode("Dashboard/app.js"),
                .embedInCode("Dashboard/app.css"),
            ]
        ),
        .target(
            name: "DecoyTesting",
            dependencies: [
                "Decoy",
                "DecoyClient",
                // Recording in tests writes stub files (Yams, C source it compiles, no library to install).
                "DecoyStubFiles",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                // Without it, failures reach neither XCTest nor Swift Testing on Linux; linked here,
                // a test target that uses DecoyTesting needs nothing else.
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),
        // The server mode of DecoyTesting apart from it, so that a test target using only the
        // in-process modes and the assertions links no C library, on macOS too.
        .target(
            name: "DecoyServerTesting",
            dependencies: [
                "Decoy", "DecoyClient", "DecoyServer", "DecoyTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // What only Decoy's own tests use to compare servings; no product ships it.
        .target(
            name: "DecoyTestSupport",
            dependencies: [
                "Decoy", "DecoyClient", "DecoyServer", "DecoyTesting", "DecoyServerTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/DecoyTestSupport"
        ),
        // Drives a server in another process over its admin API, with URLSession alone: it runs
        // in an iOS UI test, so it links no C library.
        .target(
            name: "DecoyRemote",
            dependencies: [
                "Decoy",
                "DecoyClient",
                // Reads the route of each serve event's mapping with the stub-file decoder.
                "DecoyStubFiles",
                // The assertions, which a remote expectation reports through; free of any C library on iOS.
                "DecoyTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
            ]
        ),
        // OpenAPI in a module of its own, so that users of the engine alone build no OpenAPI parsing.
        .target(
            name: "DecoyOpenAPI",
            dependencies: [
                "Decoy",
                "DecoyClient",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // The assertions on stubs against OpenAPI documents apart from DecoyOpenAPI, so that
        // the decoy command, which reads documents, links no test framework.
        .target(
            name: "DecoyOpenAPITesting",
            dependencies: ["Decoy", "DecoyOpenAPI", "DecoyTesting"]
        ),
        .executableTarget(
            name: "DecoyCommand",
            dependencies: [
                "DecoyServer",
                "DecoyStubFiles",
                "DecoyOpenAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "DecoyClientTests",
            dependencies: [
                "DecoyClient",
                "Decoy",
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            resources: [.copy("Documents")]
        ),
        .testTarget(
            name: "DecoyTests",
            dependencies: [
                "Decoy",
                "DecoyStubFiles",
                "DecoyServer",
                "DecoyTesting",
                "DecoyServerTesting",
                "DecoyTestSupport",
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "DecoyServerTests",
            dependencies: [
                "DecoyServer", "Decoy", "DecoyStubFiles", "DecoyTesting", "DecoyServerTesting", "DecoyTestSupport",
                // RemoteDecoy's WebSocket tests need the raw WebSocket client these tests have.
                "DecoyRemote",
            ]
        ),
        .testTarget(
            name: "DecoyTestingTests",
            dependencies: [
                "DecoyTesting", "DecoyServerTesting", "Decoy", "DecoyClient", "DecoyServer", "DecoyStubFiles",
                "DecoyTestSupport",
            ],
            // Stub folders the recording tests replay, found beside their source file.
            exclude: ["Recording/Recordings"]
        ),
        .testTarget(
            name: "DecoyRemoteTests",
            dependencies: [
                "DecoyRemote", "Decoy", "DecoyClient", "DecoyServer", "DecoyTesting", "DecoyServerTesting",
                "DecoyTestSupport",
            ]
        ),
        .testTarget(
            name: "DecoyOpenAPITests",
            dependencies: [
                "DecoyOpenAPI", "DecoyOpenAPITesting", "Decoy", "DecoyClient", "DecoyServer", "DecoyTesting",
                "DecoyServerTesting",
                "DecoyTestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            // Generated/ is swift-openapi-generator's output for Specs/users.yaml, committed so
            // that building the tests needs no generator (see docs/openapi.md to make it again).
            resources: [.copy("Specs")]
        ),
        .testTarget(
            name: "DecoyCommandTests",
            dependencies: [
                "DecoyCommand", "Decoy", "DecoyStubFiles", "DecoyRemote", "DecoyServerTesting", "DecoyTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The features Swift 7 turns on, on every target now, as Hummingbird does: an import is internal
// unless the public API needs it (`public import`), a member is visible only where its module is
// imported, and an existential is spelled `any`.
for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("MemberImportVisibility"),
            .enableUpcomingFeature("ExistentialAny"),
        ]
}
