package import Foundation
import HTTPTypes

extension Resource {
    /// The request this resource describes: against `base` with its defaults, unless ``path`` is
    /// a whole URL, whose host has defaults of its own that this client does not know.
    func httpRequest(
        relativeTo base: BaseTarget?, defaultFields: HTTPFields, defaultQuery: [URLQueryItem], encoder: JSONEncoder
    ) throws(APIError) -> (HTTPRequest, Data?) {
        // Most paths start with `/`: only the others are looked at for a scheme.
        if path.first != "/", let url = WholeURL(path) {
            guard !url.authority.isEmpty else { throw .invalidRequest(reason: "\(method) \(path) is not a URL") }
            return try httpRequest(
                BaseTarget(scheme: url.scheme, authority: url.authority), path: url.path, defaultFields: [:],
                defaultQuery: url.query, encoder: encoder)
        }
        guard let base else {
            throw .invalidRequest(reason: "\(method) \(path) names no host: without a client, give a whole URL")
        }
        return try httpRequest(
            base, path: path, defaultFields: defaultFields, defaultQuery: defaultQuery, encoder: encoder)
    }

    private func httpRequest(
        _ target: BaseTarget, path: String, defaultFields: HTTPFields, defaultQuery: [URLQueryItem],
        encoder: JSONEncoder
    ) throws(APIError) -> (HTTPRequest, Data?) {
        var fields = defaultFields
        var defaultQuery = defaultQuery
        if !appendsToDefaults {
            for field in headerFields { fields[field.name] = nil }
            // No set of names: this runs for every request, and both lists are short.
            if !defaultQuery.isEmpty && !query.isEmpty {
                defaultQuery.removeAll { item in query.contains { $0.name == item.name } }
            }
        }
        fields.append(contentsOf: headerFields)
        let data = try RequestBody.encode(body, with: encoder, into: &fields, describing: "\(method) \(self.path)")
        let request = HTTPRequest(
            method: method, scheme: target.scheme, authority: target.authority,
            path: target.path(path, query: defaultQuery + query), headerFields: fields)
        return (request, data)
    }

    /// Decodes an accepted response's body with the resource's own step, or the default one,
    /// with the resource's decoder and array setting, else the ones given.
    func decodeValue(_ data: Data, _ response: HTTPResponse, decoder: JSONDecoder, lossyArrays: Bool) throws -> Value {
        let context = DecodingContext(
            decoder: options.decoder ?? decoder, envelope: envelope, lossyArrays: options.lossyArrays ?? lossyArrays)
        return try decode?(data, response, context) ?? context.decode(Value.self, from: data)
    }
}

/// A whole URL as a resource's path gives it, `scheme://authority/path?query`, written as it
/// reads: split, not decoded, so that its path and query are encoded as a relative path's are.
package struct WholeURL {
    let scheme: String
    let authority: String
    package let path: String
    package let query: [URLQueryItem]

    /// The parts of `text`; `nil` when it names no scheme.
    package init?(_ text: String) {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        scheme = String(text[..<schemeEnd.lowerBound])
        let rest = text[schemeEnd.upperBound...]
        let pathStart = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        authority = String(rest[..<pathStart])
        let target = rest[pathStart...]
        let queryStart = target.firstIndex(of: "?")
        path = String(target[..<(queryStart ?? target.endIndex)])
        query =
            queryStart.map { start in
                target[target.index(after: start)...].split(separator: "&").map { pair in
                    let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    return URLQueryItem(name: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : nil)
                }
            } ?? []
    }
}
