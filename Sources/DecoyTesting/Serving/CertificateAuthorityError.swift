package import Foundation

/// Why a certificate authority given as PEM cannot be trusted.
package enum CertificateAuthorityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text holds no `-----BEGIN CERTIFICATE-----` block.
    case noCertificate
    /// A block's base64 does not decode, or decodes to no certificate.
    case notACertificate

    /// The message a developer reads.
    package var description: String {
        switch self {
        case .noCertificate: "the certificate authority holds no PEM block labelled CERTIFICATE"
        case .notACertificate: "a CERTIFICATE block of the certificate authority is not a certificate"
        }
    }

    /// The DER bytes of every `CERTIFICATE` block of `pem`, in order.
    package static func certificates(inPEM pem: String) throws(CertificateAuthorityError) -> [Data] {
        let begin = "-----BEGIN CERTIFICATE-----"
        let end = "-----END CERTIFICATE-----"
        var certificates: [Data] = []
        var rest = pem[...]
        while let start = rest.range(of: begin) {
            guard let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex) else {
                throw .notACertificate
            }
            let base64 = rest[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
            guard let der = Data(base64Encoded: String(base64)) else { throw .notACertificate }
            certificates.append(der)
            rest = rest[stop.upperBound...]
        }
        guard !certificates.isEmpty else { throw .noCertificate }
        return certificates
    }
}
