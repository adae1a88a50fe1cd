import Decoy
import Foundation
import SwiftASN1

/// A server's certificate chain and private key, both PEM, as libmicrohttpd's GnuTLS takes them.
struct TLSIdentity: Sendable, Hashable {
    let certificateChainPEM: String
    let privateKeyPEM: String

    /// Reads a certificate and key the user gave, refusing a file that is missing, unreadable or
    /// not PEM with an error naming it, before the server starts.
    init(certificateFile: String, keyFile: String) throws(DecoyError) {
        certificateChainPEM = try Self.readPEM(certificateFile, expecting: "CERTIFICATE")
        privateKeyPEM = try Self.readPEM(keyFile, expecting: "PRIVATE KEY")
    }

    init(certificateChainPEM: String, privateKeyPEM: String) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
    }

    /// The file's text, once it holds a PEM block whose label ends with `label` (so
    /// `EC PRIVATE KEY` and `RSA PRIVATE KEY` pass for a key).
    private static func readPEM(_ path: String, expecting label: String) throws(DecoyError) -> String {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .unusableTLSFile(path: path, reason: "no such file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unusableTLSFile(path: path, reason: "cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8),
            let document = try? PEMDocument(pemString: firstBlock(of: text) ?? ""),
            document.discriminator.hasSuffix(label)
        else {
            throw .unusableTLSFile(path: path, reason: "holds no PEM block labelled \(label)")
        }
        return text
    }

    /// The first `-----BEGIN …-----` to `-----END …-----` block, which PEMDocument reads alone.
    private static func firstBlock(of text: String) -> String? {
        guard let start = text.range(of: "-----BEGIN "),
            let end = text.range(of: "-----END ", range: start.upperBound..<text.endIndex),
            let close = text.range(of: "-----", range: end.upperBound..<text.endIndex)
        else { return nil }
        return String(text[start.lowerBound..<close.upperBound])
    }
}
