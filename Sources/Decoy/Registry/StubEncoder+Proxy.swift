import DecoyClient
import Foundation
import HTTPTypes

extension StubEncoder {
    /// A proxy's `response`: `proxyBaseUrl` and WireMock's other proxy fields.
    static func proxyResponse(_ proxy: ProxyStub) throws(DecoyError) -> JSONValue {
        guard proxy.transport is URLSessionTransport else {
            throw DecoyError.cannotBeSent(
                stub: "ProxyStub",
                reason:
                    """
                    its transport is \(type(of: proxy.transport)), which exists only in this process; a stub \
                    file's proxy sends through URLSession
                    """
            )
        }
        var members: [String: JSONValue] = ["proxyBaseUrl": .string(proxy.baseURL.absoluteString)]
        if !proxy.additionalRequestHeaders.isEmpty {
            members["additionalProxyRequestHeaders"] = headers(proxy.additionalRequestHeaders)
        }
        if !proxy.removedRequestHeaders.isEmpty {
            members["removeProxyRequestHeaders"] = .array(
                proxy.removedRequestHeaders.map(\.canonicalName).sorted().map(JSONValue.string))
        }
        if let prefix = proxy.urlPrefixToRemove { members["proxyUrlPrefixToRemove"] = .string(prefix) }
        // The delay and the added header fields are written as a response's are.
        guard
            case .object(let timing) = try response(
                StubResponse(headerFields: proxy.responseHeaders, delay: proxy.delay))
        else { return .object(members) }
        members.merge(timing.filter { $0.key != "status" && $0.key != "statusMessage" }) { proxied, _ in proxied }
        return .object(members)
    }
}
