import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority made at start-up, and the server certificates it signs.
///
/// A test trusts exactly this authority, so the client under test keeps full certificate
/// validation. The faults that hinge on the certificate are certificates it makes too: one that
/// has expired, one for another host, and one signed by a second authority no client is given.
struct CertificateAuthority: Sendable {
    /// The authority's certificate, which clients are given to trust.
    let certificate: Certificate
    private let key: P256.Signing.PrivateKey

    /// The names every server certificate it signs is valid for: the loopback addresses a test
    /// server listens on, by name and by number.
    static let loopbackNames: [GeneralName] = [
        .dnsName("localhost"),
        .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
        .ipAddress(ASN1OctetString(contentBytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])),
    ]

    /// Makes a new authority, valid from an hour ago (a client's clock may lag) for a year.
    init(name: String = "Decoy test CA", now: Date = Date()) throws {
        key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(name) }
        certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now - 3_600, notValidAfter: now + 365 * 86_400,
            issuer: subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
    }

    /// The authority's certificate as PEM, what `--tls-ca-out` writes and `curl --cacert` reads.
    var certificatePEM: String {
        // Serializing a certificate this type made cannot fail.
        try! certificate.serializeAsPEM().pemString
    }

    /// A server certificate and its key, for `names`, valid from `notValidBefore` to `notValidAfter`.
    func identity(
        for names: [GeneralName] = Self.loopbackNames, notValidBefore: Date = Date() - 3_600,
        notValidAfter: Date = Date() + 30 * 86_400
    ) throws -> TLSIdentity {
        let leafKey = P256.Signing.PrivateKey()
        let leaf = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(leafKey.publicKey),
            notValidBefore: notValidBefore, notValidAfter: notValidAfter,
            issuer: certificate.subject, subject: try DistinguishedName { CommonName("Decoy test server") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names)
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
        // The chain, leaf first, so that a client that trusts the authority can build it.
        let chain = try leaf.serializeAsPEM().pemString + "\n" + certificatePEM
        return TLSIdentity(certificateChainPEM: chain, privateKeyPEM: leafKey.pemRepresentation)
    }
}
