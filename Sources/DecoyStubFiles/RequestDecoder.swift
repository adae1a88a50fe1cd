import Decoy
import Foundation
import HTTPTypes

/// Reads a stub's `request` into a route, WireMock's way.
enum RequestDecoder {
    /// The fields of `request`.
    static let fields =
        ["method", "url", "urlPath", "urlPathPattern", "urlPattern", "urlPathTemplate", "basicAuthCredentials"]
        + matcherFields
    /// The fields that hold matchers, which a conditional stub's `when` takes too.
    static let matcherFields = ["queryParameters", "headers", "cookies", "formParameters", "bodyPatterns"]
    private static let urlFields = ["url", "urlPath", "urlPathPattern", "urlPattern", "urlPathTemplate"]

    /// The route `node` describes, or `nil` after logging why there is none.
    static func decode(_ node: FileNode) -> DecodedRoute? {
        guard let object = node.object(known: fields) else { return nil }
        let method = object["method"].map(method) ?? .some(nil)
        let path = pathRoute(object.oneOf(urlFields))
        let matchers = matchers(in: object)
        guard let method, let (pathRoute, pathNode) = path else { return nil }
        var route = pathRoute
        route.method = method
        route.matchers += matchers.map(\.matcher)
        // Only `url` and `urlPattern` add matchers of their own, and they always have a node.
        return DecodedRoute(
            route: route, pathNode: pathNode,
            matcherNodes: pathRoute.matchers.compactMap { _ in pathNode } + matchers.map(\.node))
    }

    /// The method, `nil` for `ANY`; an invalid one logs an error and gives `.none`.
    private static func method(_ node: FileNode) -> HTTPRequest.Method?? {
        guard let text = node.text("a method such as \"GET\" or \"ANY\"") else { return .none }
        if text == "ANY" { return .some(nil) }
        guard let method = HTTPRequest.Method(text) else { return node.expected("a method such as \"GET\" or \"ANY\"") }
        return .some(method)
    }

    /// The route for WireMock's URL field `url`, whatever its kind; any path when there is none.
    private static func pathRoute(_ url: (key: String, value: FileNode)?) -> (Route, FileNode?)? {
        guard let (key, node) = url else { return (Route(method: nil, path: "/**"), nil) }
        guard let text = node.text("a path") else { return nil }
        switch key {
        case "url":
            // The path alone is hashed, so the lookup stays indexed; the target matcher adds the query.
            let path = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return (
                Route(
                    method: nil, path: path.removingPercentEncoding ?? String(path), pathSyntax: .exact,
                    matchers: [.target(.equalTo(text))]), node
            )
        case "urlPattern":
            return (Route(method: nil, path: "/**", matchers: [.target(.matches(text))]), node)
        case "urlPath":
            return (Route(method: nil, path: text, pathSyntax: .exact), node)
        case "urlPathPattern":
            return (Route(method: nil, path: text, pathSyntax: .regularExpression), node)
        default:
            return (Route(method: nil, path: text), node)
        }
    }

    /// The matchers of `queryParameters`, `headers`, `cookies`, `formParameters` and `bodyPatterns` in `object`, each
    /// with its node.
    static func matchers(in object: FileObject) -> [(matcher: RequestMatcher, node: FileNode)] {
        var found: [(matcher: RequestMatcher, node: FileNode)] = []
        func named(_ field: String, _ make: (String, ValueMatcher, FileNode) -> RequestMatcher?) {
            for (name, node) in object[field]?.object(known: nil)?.members ?? [] {
                if let value = MatcherDecoder.decode(node), let matcher = make(name, value, node) {
                    found.append((matcher, node))
                }
            }
        }
        named("queryParameters") { name, value, _ in .query(name, value) }
        named("headers") { name, value, node in
            guard let field = HTTPField.Name(name) else {
                node.error("\"\(name)\" is not a valid header name")
                return nil
            }
            return .header(field, value)
        }
        named("cookies") { name, value, _ in .cookie(name, value) }
        named("formParameters") { name, value, _ in .formParameter(name, value) }
        for node in object["bodyPatterns"]?.list() ?? [] {
            if let value = MatcherDecoder.decode(node) { found.append((.body(value), node)) }
        }
        if let node = object["basicAuthCredentials"], let credentials = basicAuthorization(node) {
            found.append((.header(.authorization, .equalTo(credentials)), node))
        }
        return found
    }

    /// WireMock's `basicAuthCredentials`, `{"username": …, "password": …}`, as the `Authorization`
    /// field a client sends for them.
    private static func basicAuthorization(_ node: FileNode) -> String? {
        guard let object = node.object(known: ["username", "password"]) else { return nil }
        let parts = ["username", "password"].map { name -> String? in
            guard let part = object[name] else {
                node.error("basicAuthCredentials needs \"\(name)\"")
                return nil
            }
            return part.text()
        }
        guard let username = parts[0], let password = parts[1] else { return nil }
        return "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }
}
