public import ArgumentParser
import Decoy
import DecoyServer
import Foundation

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

    @Option(help: "The port to listen on for HTTP (8080 unless --https-port alone is given); 0 picks a free one.")
    var port: UInt16?

    @Option(help: "Also listen for HTTPS on this port (alone, without --port, HTTPS only); 0 picks a free one.")
    var httpsPort: UInt16?

    @Option(help: "The HTTPS certificate chain, PEM, leaf first; without it, a certificate authority is made.")
    var tlsCert: String?

    @Option(help: "The private key of --tls-cert, PEM.")
    var tlsKey: String?

    @Option(help: "Write the made certificate authority here, PEM, for clients to trust (curl --cacert).")
    var tlsCaOut: String?

    @Option(
        help: ArgumentHelp(
            """
            Fail every HTTPS handshake this way: expired-certificate, wrong-host, unknown-authority, \
            handshake-reset or handshake-stall.
            """,
            valueName: "fault"))
    var tlsFault: TLSFault?

    @Flag(help: "Turn off the admin API under /__admin.")
    var noAdmin = false

    @Option(help: "Require this bearer token for the admin API.")
    var adminToken: String?

    func validate() throws {
        if noAdmin, adminToken != nil { throw ValidationError("--admin-token needs the admin API; drop --no-admin.") }
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("--tls-cert and --tls-key go together.") }
        if httpsPort == nil, tlsCert != nil || tlsCaOut != nil || tlsFault != nil {
            throw ValidationError("--tls-cert, --tls-key, --tls-ca-out and --tls-fault need --https-port.")
        }
        if tlsCert != nil, tlsCaOut != nil {
            throw ValidationError("--tls-ca-out writes the made authority; with --tls-cert none is made.")
        }
    }

    /// The server's configuration for these flags, with what else the command sets.
    func configure(_ configuration: inout MockServer.Configuration) {
        configuration.host = host
        configuration.port = port ?? 8080
        configuration.servesHTTP = port != nil || httpsPort == nil
        configuration.adminAccess = adminAccess
        configuration.tls = httpsPort.map { httpsPort in
            MockServer.Configuration.TLS(
                port: httpsPort,
                identity: tlsCert.map { .files(certificate: $0, key: tlsKey ?? "") } ?? .generated,
                fault: tlsFault)
        }
    }

    /// Starts `server` and writes its generated authority where `--tls-ca-out` asks; on failure,
    /// stops it and says why on standard error.
    func start(_ server: MockServer) throws(ExitCode) {
        do {
            try server.start()
            if let tlsCaOut, let pem = server.certificateAuthorityPEM {
                try Data(pem.utf8).write(to: URL(filePath: tlsCaOut))
            }
        } catch {
            server.stop()
            FileHandle.standardError.say("\(error)")
            throw ExitCode.failure
        }
    }

    /// The URLs the server answers on, for the line that says where it serves.
    func urls(of server: MockServer) -> String {
        let configuration = server.configuration
        return [
            configuration.servesHTTP ? server.baseURL.absoluteString : nil,
            configuration.tls != nil ? server.httpsBaseURL.absoluteString : nil,
        ].compactMap { $0 }.joined(separator: " and ")
    }

    /// Where the dashboard is: on the HTTP port, or on the HTTPS one when that is all it serves.
    func dashboardURL(of server: MockServer) -> String {
        let base = server.configuration.servesHTTP ? server.baseURL : server.httpsBaseURL
        return "\(base.absoluteString)/__admin/dashboard"
    }

    /// The admin API as the flags ask for it.
    var adminAccess: MockServer.AdminAccess {
        noAdmin ? .off : adminToken.map { .token($0) } ?? .open
    }
}

extension TLSFault: ExpressibleByArgument {}
