import DecoyClient
import Foundation
import HTTPTypes

extension ProxyStub: StubFileEncodable {
    /// `response`: `proxyBaseUrl` and WireMock's other proxy fields.
    package func stubFileMembers() throws(DecoyError) -> [String: JSONValue] {
        ["response": try proxyResponse()]
    }

    private func proxyResponse() throws(DecoyError) -> JSONValue {
        guard transport is URLSessionTransport else {
            throw DecoyError.cannotBeSent(
                stub: "ProxyStub",
                reason:
                    """
                    its transport is \(type(of: transport)), which exists only in this process; a stub \
                    file's proxy sends through URLSession
                    """
            )
        }
        var members: [String: JSONValue] = ["proxyBaseUrl": .string(baseURL.absoluteString)]
        if !additionalRequestHeaders.isEmpty {
            members["additionalProxyRequestHeaders"] = StubEncoder.headers(additionalRequestHeaders)
        }
        if !removedRequestHeaders.isEmpty {
            members["removeProxyRequestHeaders"] = .array(
                removedRequestHeaders.map(\.canonicalName).sorted().map(JSONValue.string))
        }
        if let urlPrefixToRemove { members["proxyUrlPrefixToRemove"] = .string(urlPrefixToRemove) }
        // The delay and the added header fields are written as a response's are.
        guard
            case .object(let timing) = try StubEncoder.response(
                StubResponse(headerFields: responseHeaders, delay: delay))
        else { return .object(members) }
        members.merge(timing.filter { $0.key != "status" && $0.key != "statusMessage" }) { proxied, _ in proxied }
        return .object(members)
    }
}
