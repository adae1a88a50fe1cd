import CMicroHTTPD
import Decoy
import Foundation
import X509

/// What an HTTPS port shows, worked out before any port opens: the certificate for its fault
/// and the authority a client is given to trust.
struct HTTPSSetup {
    /// The generated authority, `nil` when the user gave certificate files.
    let authority: CertificateAuthority?
    /// The certificate and key the port shows, `nil` for a port that stalls every handshake.
    let identity: TLSIdentity?
    let fault: TLSFault?

    /// The host a ``TLSFault/wrongHost`` certificate is issued for; `.invalid` is never a real one.
    static let wrongHost = "wrong-host.invalid"

    init(_ tls: MockServer.Configuration.TLS) throws(DecoyError) {
        guard decoy_supports_tls() != 0 else { throw .tlsUnsupported }
        fault = tls.fault
        switch tls.identity {
        case .files(let certificate, let key):
            if let fault, [.expiredCertificate, .wrongHost, .unknownAuthority].contains(fault) {
                throw .certificateFaultNeedsGeneratedIdentity(fault)
            }
            authority = nil
            identity = fault == .handshakeStall ? nil : try TLSIdentity(certificateFile: certificate, keyFile: key)
        case .generated:
            do {
                let authority = try CertificateAuthority()
                self.authority = authority
                identity = try Self.identity(for: fault, from: authority)
            } catch {
                // Making a key and signing with it fails only if the crypto library does.
                preconditionFailure("cannot make a test certificate: \(error)")
            }
        }
    }

    /// The certificate the authority makes for `fault`: a good one, an expired one, one for
    /// another host, or one from an authority of its own that no client is given.
    private static func identity(for fault: TLSFault?, from authority: CertificateAuthority) throws -> TLSIdentity? {
        let now = Date()
        switch fault {
        case nil, .handshakeReset: return try authority.identity()
        case .expiredCertificate:
            return try authority.identity(notValidBefore: now - 30 * 86_400, notValidAfter: now - 86_400)
        case .wrongHost: return try authority.identity(for: [.dnsName(wrongHost)])
        case .unknownAuthority: return try CertificateAuthority(name: "Decoy unknown CA").identity()
        case .handshakeStall: return nil
        }
    }

    /// The daemon's listener on `port`, `nil` when the port stalls and no daemon serves it.
    func listener(port: UInt16) -> Daemon.Listener? {
        identity.map { Daemon.Listener(port: port, identity: $0, resetsHandshakes: fault == .handshakeReset) }
    }
}
