import ArgumentParser

/// WireMock 2's command-line options on `decoy serve`, so that a script written for WireMock's
/// standalone jar can start Decoy unchanged where the two mean the same: each of WireMock's
/// options is Decoy's own under a second name, accepted because Decoy already does what it asks,
/// or refused by name with the reason (``refused``), before the arguments are parsed. See
/// docs/server.md.
struct WireMockOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The folder of stub files, as WireMock names it: the same as the folder argument.", valueName: "folder"))
    var rootDir: String?

    @Flag(help: "The same as --log verbose.")
    var verbose = false

    @Flag(help: "The same as --log none.")
    var disableRequestLogging = false

    @Flag(
        help:
            """
            Accepted for WireMock's sake, with no effect: Decoy always renders the responses with \
            \"transformers\": [\"response-template\"] as templates.
            """
    )
    var localResponseTemplating = false

    @Flag(help: "Accepted for WireMock's sake, with no effect: Decoy prints no banner.")
    var disableBanner = false

    @Flag(help: "Accepted for WireMock's sake, with no effect: Decoy never compresses a response.")
    var disableGzip = false

    @Option(
        help: ArgumentHelp(
            "Accepted for WireMock's sake, with no effect: Decoy never holds a thread for a delayed response.",
            valueName: "true|false"))
    var asyncResponseEnabled: Bool?

    @Flag(
        help: "Accepted for WireMock's sake, with no effect: a setting of Java's XML parsers, which Decoy does not use."
    )
    var disableOptimizeXmlFactoriesLoading = false

    func validate() throws {
        if verbose, disableRequestLogging {
            throw ValidationError("--verbose and --disable-request-logging ask for opposite logs; drop one.")
        }
    }

    /// Why `decoy serve` does not take the first of WireMock's other options among `arguments`, the
    /// serve command's; `nil` when there is none. Looked for before the arguments are parsed,
    /// where the parser would only say "unknown option", and would first take an option's value
    /// for the folder.
    static func refusal(of arguments: some Sequence<String>) -> String? {
        for argument in arguments {
            if argument == "--" { return nil }
            let name = String(argument.prefix { $0 != "=" })
            if let reason = refused[name] { return "decoy serve does not take WireMock's \(name): \(reason)." }
        }
        return nil
    }

    /// The log `--verbose` or `--disable-request-logging` asks for, if either does, and the flag.
    var log: (flag: String, option: LogOption)? {
        if verbose { return ("--verbose", .verbose) }
        if disableRequestLogging { return ("--disable-request-logging", LogOption.none) }
        return nil
    }

    /// WireMock 2.35's options that Decoy does not take, each with the reason, and the way to
    /// Decoy's own where there is one.
    static let refused: [String: String] = {
        let keystore =
            "Decoy reads PEM files, --tls-cert and --tls-key "
            + "(export a keystore with keytool and openssl, docs/server.md)"
        let proxying = "Decoy proxies only a stub's \"proxyBaseUrl\", straight to it (see docs/proxying.md)"
        let threads = "Decoy's server threads are not set from the command line; a delayed or held response takes none"
        var refused = [
            "--admin-api-basic-auth": "Decoy guards the admin API with a bearer token; use --admin-token",
            "--no-request-journal":
                "Decoy always keeps the journal that verification reads; bound it with --max-request-journal-entries",
            "--record-mappings": "record with decoy record --target URL, which writes stub files when it stops",
            "--match-headers": "decoy record has no header matching to turn on",
            "--proxy-all":
                """
            add a stub with \"proxyBaseUrl\" at a low priority, or run decoy record --target URL, which \
            proxies every request no stub answers
            """,
            "--extensions": "Decoy runs no Java extensions; register Swift stubs in code instead",
            "--jetty-header-buffer-size":
                "use --header-memory-limit, the memory each connection has for a request's head and its response's",
            "--jetty-header-request-size":
                "use --header-memory-limit, the memory each connection has for a request's head and its response's",
            "--jetty-header-response-size":
                "use --header-memory-limit, the memory each connection has for a request's head and its response's",
            "--jetty-idle-timeout":
                "Decoy's idle timeout is the server's connection timeout, 30 s, not set from the command line",
            "--jetty-stop-timeout": "Decoy stops at once, closing held connections",
            "--timeout": "Decoy has no global response timeout; a stub's delay or fault holds its response",
            "--print-all-network-traffic": "use --log verbose for a line per request and why an unmatched one missed",
            "--logged-response-body-size-limit":
                "Decoy's journal does not truncate bodies; bound it by entries with --max-request-journal-entries",
            "--max-template-cache-entries":
                "Decoy parses each template once, when its stub is loaded, and keeps no cache to bound",
            "--permitted-system-keys": "Decoy's templates read no system properties or environment variables",
            "--use-chunked-encoding": "Decoy's server decides how a body is framed",
            "--disable-strict-http-headers": "Decoy refuses the request heads that RFC 9112 says to refuse",
            "--enable-stub-cors": "Decoy adds no CORS header fields; write them into the stubs' responses",
            "--load-resources-from-classpath": "Decoy reads a folder; use --root-dir",
        ]
        for name in ["--https-keystore", "--keystore-password", "--keystore-type", "--key-manager-password"] {
            refused[name] = keystore
        }
        for name in ["--https-require-client-cert", "--https-truststore", "--truststore-password", "--truststore-type"]
        {
            refused[name] = "Decoy's HTTPS asks for no client certificate"
        }
        refused["--disable-http"] = "give --https-port without --port to serve HTTPS only"
        refused["--admin-api-require-https"] = "Decoy's admin API answers on every port the server listens on"
        for name in [
            "--proxy-via", "--preserve-host-header", "--enable-browser-proxying", "--trust-all-proxy-targets",
            "--trust-proxy-target", "--ca-keystore", "--ca-keystore-password", "--ca-keystore-type",
            "--allow-proxy-targets", "--deny-proxy-targets",
        ] {
            refused[name] = proxying
        }
        for name in [
            "--container-threads", "--jetty-acceptor-threads", "--jetty-accept-queue-size", "--async-response-threads",
        ] {
            refused[name] = threads
        }
        return refused
    }()
}
