import ArgumentParser
import DecoyServer

/// Where a command's server listens and who may use its admin API, the same for `serve` and `record`.
struct ListenOptions: ParsableArguments {
    @Option(
        name: [.customLong("host"), .customLong("bind-address")],
        help:
            """
            The numeric address to listen on: 127.0.0.1 or ::1 for this machine only; another, such as 0.0.0.0, \
            needs --admin-token or --no-admin.
            """
    )
    var host: String = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: UInt16 = 8080

    @Flag(help: "Turn off the admin API under /__admin.")
    var noAdmin = false

    @Option(help: "Require this bearer token for the admin API.")
    var adminToken: String?

    func validate() throws {
        if noAdmin, adminToken != nil { throw ValidationError("--admin-token needs the admin API; drop --no-admin.") }
    }

    /// The admin API as the flags ask for it.
    var adminAccess: MockServer.AdminAccess {
        noAdmin ? .off : adminToken.map { .token($0) } ?? .open
    }
}
