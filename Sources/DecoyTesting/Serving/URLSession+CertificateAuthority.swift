#if canImport(Security)
    public import Foundation
    import Security

    extension URLSession {
        /// A session that trusts the certificate authority `pem` (a `MockServer`'s
        /// `certificateAuthorityPEM`, or the file `decoy serve --tls-ca-out` wrote) and no other,
        /// so that the client under test keeps full certificate validation against a test server.
        ///
        /// Apple's systems only: each server-trust challenge is evaluated with the authority as
        /// the only anchor; a server it does not vouch for is left to the system's own handling,
        /// which refuses it with its usual error (`serverCertificateUntrusted`, …). On Linux,
        /// swift-corelibs-foundation asks no delegate about server trust and reads no setting
        /// for it, so a URLSession there trusts the system's store alone (see docs/server.md).
        ///
        /// ```swift
        /// let session = try URLSession.trusting(certificateAuthority: server.certificateAuthorityPEM!)
        /// let client = APIClient(baseURL: server.httpsBaseURL, transport: URLSessionTransport(session: session))
        /// ```
        ///
        /// - Throws: an error saying so when `pem` holds no certificate, or a block that is not one.
        public static func trusting(
            certificateAuthority pem: String, configuration: URLSessionConfiguration = .ephemeral
        ) throws -> URLSession {
            let trust = try AuthorityTrust(pem: pem)
            return URLSession(configuration: configuration, delegate: trust, delegateQueue: nil)
        }
    }

    /// Answers server-trust challenges with one authority as the only anchor.
    ///
    /// `@unchecked Sendable`: its anchors are set once, in `init`, and only read after.
    private final class AuthorityTrust: NSObject, URLSessionDelegate, @unchecked Sendable {
        private let anchors: [SecCertificate]

        init(pem: String) throws(CertificateAuthorityError) {
            anchors = try CertificateAuthorityError.certificates(inPEM: pem).map {
                (der) throws(CertificateAuthorityError) -> SecCertificate in
                guard let certificate = SecCertificateCreateWithData(nil, der as CFData) else {
                    throw CertificateAuthorityError.notACertificate
                }
                return certificate
            }
        }

        func urlSession(
            _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
                let trust = challenge.protectionSpace.serverTrust
            else { return completionHandler(.performDefaultHandling, nil) }
            SecTrustSetAnchorCertificates(trust, anchors as CFArray)
            SecTrustSetAnchorCertificatesOnly(trust, true)
            if SecTrustEvaluateWithError(trust, nil) {
                completionHandler(.useCredential, URLCredential(trust: trust))
            } else {
                // The system evaluates it again, still with these anchors only, and fails the
                // task with its own error rather than a cancellation.
                completionHandler(.performDefaultHandling, nil)
            }
        }
    }
#endif
