import Decoy
import Foundation
import HTTPTypes
import Yams

extension ResponseDecoder {
    /// WireMock's proxy fields of a response.
    static let proxyFields = [
        "proxyBaseUrl", "additionalProxyRequestHeaders", "removeProxyRequestHeaders", "proxyUrlPrefixToRemove",
    ]
    /// The fields a proxied response keeps: the upstream gives the status and the body; header
    /// fields are added to its own, and a delay holds its answer.
    private static let proxiedResponseFields = proxyFields + ["headers", "fixedDelayMilliseconds", "delayDistribution"]

    /// The ``ProxyStub`` a stub's `response` with `proxyBaseUrl` describes; `nil` after logging
    /// every problem in it.
    func decodeProxy(_ node: FileNode) -> ProxyStub? {
        guard let object = node.object(known: Self.fields) else { return nil }
        var valid = true
        for (key, value) in object.members where !Self.proxiedResponseFields.contains(key) {
            value.error("\(key) does not go with proxyBaseUrl: the upstream's answer is sent as it comes")
            valid = false
        }
        let baseURL = object["proxyBaseUrl"].flatMap(proxyBaseURL)
        let added = object["additionalProxyRequestHeaders"].map(headers) ?? [:]
        let removed = object["removeProxyRequestHeaders"].map(headerNames) ?? []
        let prefix = object["proxyUrlPrefixToRemove"].map { $0.text("a path such as /api") } ?? .some(nil)
        let responseHeaders = object["headers"].map(headers) ?? [:]
        let delay = Self.delay(object)
        guard valid, let baseURL, let added, let removed, let prefix, let responseHeaders, let delay else { return nil }
        return ProxyStub(
            to: baseURL, additionalRequestHeaders: added, removingRequestHeaders: removed, urlPrefixToRemove: prefix,
            responseHeaders: responseHeaders, delay: delay
        )
    }

    /// Logs the proxy fields of a response that cannot proxy: one of a list, a condition or a failure.
    func refuseProxyFields(_ object: FileObject) -> Bool {
        let found = object.members.filter { Self.proxyFields.contains($0.key) }
        for (key, value) in found {
            value.error(
                "\(key) goes in a stub's own \"response\", not in a list of responses, a condition or a failure")
        }
        return found.isEmpty
    }

    /// An absolute `http` or `https` URL.
    private func proxyBaseURL(_ node: FileNode) -> URL? {
        let what = "an http or https URL with a host, such as http://127.0.0.1:8081"
        guard let text = node.text(what) else { return nil }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()),
            url.host?.isEmpty == false
        else {
            return node.expected(what)
        }
        return url
    }

    /// A list of header names.
    private func headerNames(_ node: FileNode) -> Set<HTTPField.Name>? {
        guard let items = node.list("a list of header names") else { return nil }
        let names = items.map { item in
            item.text("a header name").flatMap { text in HTTPField.Name(text) ?? item.expected("a valid header name") }
        }
        let valid = names.compactMap { $0 }
        return valid.count == names.count ? Set(valid) : nil
    }
}
