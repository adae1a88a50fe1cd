import Decoy
import DecoyServer
import DecoyTesting
import Foundation
import Testing

/// Reading the authority `URLSession.trusting(certificateAuthority:)` is given; the trust itself
/// runs on Apple's systems only.
@Suite struct CertificateAuthorityErrorTests {
    @Test func theServersAuthorityReadsAsOneCertificate() throws {
        var configuration = MockServer.Configuration()
        configuration.tls = .init()
        let server = MockServer(registry: .init(), configuration: configuration)
        try server.start()
        defer { server.stop() }
        let pem = try #require(server.certificateAuthorityPEM)
        let certificates = try CertificateAuthorityError.certificates(inPEM: pem)
        #expect(certificates.count == 1)
        // A DER certificate is one SEQUENCE.
        #expect(certificates.first?.first == 0x30)
    }

    @Test func textWithoutACertificateIsRefused() {
        #expect(throws: CertificateAuthorityError.noCertificate) {
            try CertificateAuthorityError.certificates(inPEM: "not PEM")
        }
        #expect(throws: CertificateAuthorityError.notACertificate) {
            try CertificateAuthorityError.certificates(
                inPEM: "-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----")
        }
    }
}
