import ArgumentParser
import Decoy
import DecoyStubFiles
import Foundation
import Testing

@testable import DecoyCommand

/// `decoy check` and `decoy serve`'s flags as the command line reads them. (The executable
/// itself is run by the log and remote tests; each more launch risks Foundation's `Process.run`
/// crash on Linux, swift-corelibs-foundation#5472.)
@Suite("decoy check and serve")
struct CommandTests {
    /// A stubs folder of its own for one test, removed afterwards.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appending(path: "decoy-command-\(UUID().uuidString)")

        init(_ files: [String: String]) throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            for (name, text) in files { try write(name, text) }
        }

        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: url.appending(path: name), options: .atomic)
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    private static let hello =
        #"{"request": {"method": "GET", "urlPath": "/hello"}, "response": {"status": 200, "body": "hi"}}"#

    @Test func checkPassesAValidFolderAndFailsABrokenOne() throws {
        let valid = try Folder(["hello.json": Self.hello])
        try CheckCommand.parse([valid.url.path]).run()
        let broken = try Folder(["a.json": #"{"request": {"urlPath": "/a"}, "response": {"status": "ok"}}"#])
        #expect(throws: ExitCode.failure) { try CheckCommand.parse([broken.url.path]).run() }
    }

    /// What WireMock reads leniently passes the check, with warnings; a refused stub fails it.
    @Test func checkPassesLenientJSONAndTakesServesStrictFlags() throws {
        let lenient = try Folder(["hello.json": "// greets\n" + Self.hello + "\n}"])
        try CheckCommand.parse([lenient.url.path]).run()
        let command = try ServeCommand.parse(["--strict", "--default-content-type"])
        #expect(command.strict && command.defaultContentType)
        #expect(try ServeCommand.parse([]).strict == false)
    }

    /// `decoy serve --watch` after a broken edit: the summary counts what serves, the broken
    /// file's previous stubs among it, and names that file.
    @Test func aReloadSaysWhichBrokenFilesPreviousStubsStillServe() throws {
        let pair = #"[\#(Self.hello), {"request": {"urlPath": "/bye"}, "response": {"body": "bye"}}]"#
        let folder = try Folder(["a.json": pair, "b.json": Self.hello.replacingOccurrences(of: "/hello", with: "/b")])
        let registry = StubRegistry()
        try registry.load(folder: folder.url)
        try folder.write("a.json", #"[{"request": {"urlPath": "/hello"}, "response": {"status": "ok"}}]"#)
        let report = try registry.reload(folder: folder.url)
        #expect(report.kept.map(\.line) == [1, 1])
        #expect(report.kept.map(\.file) == ["a.json", "a.json"])
        #expect(
            ServeCommand.summary(of: report, from: "stubs")
                == "3 stubs from stubs (2 of a.json kept from its previous version); 1 refused (listed above, and at "
                + "/__admin/stub-files)")
        #expect(report.description.contains("a.json:1: kept from the previous version: GET /hello"))
    }

    @Test func checkReadsEveryResponseAsATemplateWithGlobalResponseTemplating() throws {
        let folder = try Folder([
            "echo.json": #"{"request": {"urlPath": "/echo"}, "response": {"body": "{{shout request.path}}"}}"#
        ])
        try CheckCommand.parse([folder.url.path]).run()
        #expect(throws: ExitCode.failure) {
            try CheckCommand.parse([folder.url.path, "--global-response-templating"]).run()
        }
        #expect(try ServeCommand.parse(["--global-response-templating"]).globalResponseTemplating)
    }

    @Test func headerMemoryLimitDefaultsToTheServersAndTakesBytes() throws {
        #expect(try ServeCommand.parse([]).headerMemoryLimit == 32 * 1024)
        #expect(try ServeCommand.parse(["--header-memory-limit", "65536"]).headerMemoryLimit == 65_536)
    }

    /// WireMock's names for Decoy's own options, as its standalone jar takes them.
    @Test func serveTakesWireMocksNamesForItsOwnOptions() throws {
        let command = try ServeCommand.parse([
            "--root-dir", "mocks", "--port", "9090", "--bind-address", "::1", "--verbose",
            "--max-request-journal-entries", "50", "--global-response-templating",
        ])
        #expect(command.folder == "mocks")
        #expect(command.listen.port == 9090)
        #expect(command.listen.host == "::1")
        #expect(command.log == .verbose)
        #expect(command.journalLimit == 50)
        #expect(command.globalResponseTemplating)
        #expect(try ServeCommand.parse(["--disable-request-logging"]).log == LogOption.none)
        #expect(try ServeCommand.parse(["mocks", "--root-dir", "mocks"]).folder == "mocks")
    }

    /// WireMock's options that ask for what Decoy does anyway are accepted and change nothing.
    @Test func serveAcceptsWireMocksOptionsThatAskForWhatItDoes() throws {
        let command = try ServeCommand.parse([
            "--local-response-templating", "--disable-banner", "--disable-gzip", "--async-response-enabled", "true",
            "--disable-optimize-xml-factories-loading",
        ])
        #expect(command.folder == ServeCommand.defaultFolder)
        #expect(command.log == .requests)
        #expect(!command.globalResponseTemplating)
    }

    @Test func versionIsPrintedFromOnePlace() {
        #expect(DecoyTool.configuration.version == DecoyTool.version)
        #expect(DecoyTool.version.split(separator: ".").count == 3)
    }

    @Test(arguments: [
        (
            ["--port", "0", "--https-port", "8443", "--https-keystore", "k.jks"],
            "decoy serve does not take WireMock's --https-keystore: Decoy reads PEM files, --tls-cert and --tls-key"
        ),
        (["--no-request-journal"], "decoy serve does not take WireMock's --no-request-journal: Decoy always keeps"),
        (["--proxy-all=http://example.com"], "decoy serve does not take WireMock's --proxy-all: add a stub with"),
        (
            ["stubs", "--container-threads", "4"],
            "decoy serve does not take WireMock's --container-threads: Decoy's server threads"
        ),
    ])
    func serveRefusesWireMockOptionsItDoesNotTakeByName(arguments: [String], message: String) throws {
        let refusal = WireMockOptions.refusal(of: arguments)
        #expect(refusal?.hasPrefix(message) == true, "\(String(describing: refusal))")
        // Parsed regardless, they are unknown.
        #expect(throws: (any Error).self) { try ServeCommand.parse(arguments) }
    }

    @Test func aRefusedNameAfterTheTerminatorIsAFolder() {
        #expect(WireMockOptions.refusal(of: ["--port", "0", "--", "--disable-http"]) == nil)
        #expect(WireMockOptions.refusal(of: ["--port", "0", "--verbose"]) == nil)
    }

    @Test(arguments: [
        (["--frobnicate"], "Unknown option '--frobnicate'"),
        (["--root-dir", "a", "b"], "--root-dir and the folder argument name different folders; give one."),
        (["--verbose", "--log", "none"], "--verbose is --log verbose; it cannot go with --log none."),
        (["--verbose", "--disable-request-logging"], "--verbose and --disable-request-logging ask for opposite logs"),
        (["--max-request-journal-entries", "0"], "--journal-limit must be at least 1."),
    ])
    func serveRefusesWireMockNamesThatDoNotGoTogether(arguments: [String], message: String) throws {
        let error = #expect(throws: (any Error).self) { try ServeCommand.parse(arguments) }
        #expect(error.map { ServeCommand.message(for: $0) }?.contains(message) == true, "\(String(describing: error))")
    }

    /// Every option WireMock 2.35.1's `--help` lists is Decoy's, accepted, or refused with a reason.
    @Test func everyWireMockOptionHasAnAnswer() throws {
        let same = [
            "--port", "--bind-address", "--root-dir", "--verbose", "--global-response-templating",
            "--max-request-journal-entries", "--disable-request-logging", "--help", "--https-port",
        ]
        let accepted = [
            "--local-response-templating", "--disable-banner", "--disable-gzip", "--async-response-enabled",
            "--disable-optimize-xml-factories-loading",
        ]
        let answered = Set(same + accepted + WireMockOptions.refused.keys)
        #expect(Self.wireMockOptions.filter { !answered.contains($0) } == [])
        #expect(answered.count == Self.wireMockOptions.count)
    }

    /// The options `java -jar wiremock-standalone-2.35.1.jar --help` lists.
    static let wireMockOptions = [
        "--admin-api-basic-auth", "--admin-api-require-https", "--allow-proxy-targets", "--async-response-enabled",
        "--async-response-threads", "--bind-address", "--ca-keystore", "--ca-keystore-password", "--ca-keystore-type",
        "--container-threads", "--deny-proxy-targets", "--disable-banner", "--disable-gzip", "--disable-http",
        "--disable-optimize-xml-factories-loading", "--disable-request-logging", "--disable-strict-http-headers",
        "--enable-browser-proxying", "--enable-stub-cors", "--extensions", "--global-response-templating", "--help",
        "--https-keystore", "--https-port", "--https-require-client-cert", "--https-truststore",
        "--jetty-accept-queue-size", "--jetty-acceptor-threads", "--jetty-header-buffer-size",
        "--jetty-header-request-size", "--jetty-header-response-size", "--jetty-idle-timeout", "--jetty-stop-timeout",
        "--key-manager-password", "--keystore-password", "--keystore-type", "--load-resources-from-classpath",
        "--local-response-templating", "--logged-response-body-size-limit", "--match-headers",
        "--max-request-journal-entries", "--max-template-cache-entries", "--no-request-journal",
        "--permitted-system-keys", "--port", "--preserve-host-header", "--print-all-network-traffic", "--proxy-all",
        "--proxy-via", "--record-mappings", "--root-dir", "--timeout", "--trust-all-proxy-targets",
        "--trust-proxy-target", "--truststore-password", "--truststore-type", "--use-chunked-encoding", "--verbose",
    ]

    @Test(arguments: [
        (["--no-admin", "--admin-token", "x"], "--admin-token needs the admin API; drop --no-admin."),
        (["--journal-limit", "0"], "--journal-limit must be at least 1."),
        (["--header-memory-limit", "1024"], "--header-memory-limit must be from 4096 to 1048576 bytes."),
        (["--delay", "soon"], #"--delay takes milliseconds: 250, 100-300 or lognormal:80:0.4; got "soon""#),
        (["--delay", "lognormal:80:9"], "--delay lognormal:80:9"),
    ])
    func serveRefusesFlagsThatDoNotGoTogether(arguments: [String], message: String) throws {
        let error = #expect(throws: (any Error).self) { try ServeCommand.parse(arguments) }
        #expect(error.map { ServeCommand.message(for: $0) }?.contains(message) == true, "\(String(describing: error))")
    }
}

/// `decoy import har` as the command line reads it.
@Suite("decoy import har")
struct ImportCommandTests {
    @Test func writesStubsThatPassTheCheck() throws {
        let har = """
            {"log": {"version": "1.2", "entries": [
              {"request": {"method": "GET", "url": "http://api.test/users/1"}, "response": {"status": 200,
               "headers": [{"name": "Content-Type", "value": "application/json"}],
               "content": {"mimeType": "application/json", "text": "{\\"id\\": 1}"}}}
            ]}}
            """
        let folder = try CommandTests.Folder(["session.har": har])
        let stubs = folder.url.appending(path: "stubs").path
        try HARImportCommand.parse([folder.url.appending(path: "session.har").path, "--to", stubs]).run()
        try CheckCommand.parse([stubs]).run()
        #expect(FileManager.default.fileExists(atPath: stubs + "/mappings/get-users-1.json"))
        let command = try DecoyTool.parseAsRoot([
            "import", "har", "x.har", "--host", "a", "--host", "b", "--host-folders",
        ])
        #expect((command as? HARImportCommand)?.hosts == ["a", "b"])
        #expect(throws: ExitCode.failure) {
            try HARImportCommand.parse([folder.url.appending(path: "missing.har").path, "--to", stubs]).run()
        }
    }
}

/// `decoy export har` as the command line reads it.
@Suite("decoy export har")
struct ExportCommandTests {
    @Test func takesTheServerTheFileAndTheToken() throws {
        let command = try DecoyTool.parseAsRoot(
            ["export", "har", "--server", "http://127.0.0.1:9", "--to", "out.har", "--admin-token", "t"])
        let export = try #require(command as? HARExportCommand)
        #expect(export.server == "http://127.0.0.1:9" && export.to == "out.har" && export.adminToken == "t")
    }
}
