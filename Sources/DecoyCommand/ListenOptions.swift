import ArgumentParser

/// Where a command's server listens: `--host` and `--port`, the same for `serve` and `record`.
struct ListenOptions: ParsableArguments {
    @Option(help: "The numeric address to listen on: 127.0.0.1 or ::1 for this machine only; another, such as 0.0.0.0, needs --admin-token or --no-admin.")
    var host: String = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: UInt16 = 8080
}
