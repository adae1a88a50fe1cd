public import Decoy
public import Foundation
import HTTPTypes

/// An OpenAPI 3.0 or 3.1 document, JSON or YAML, read once: its operations, each with the route
/// its requests take, and what serving its examples checks requests against.
///
/// An operation Decoy cannot serve (a reference to nothing, responses that are not a map, an
/// `operationId` used twice) is refused by itself, in ``refused``, and the rest of the document
/// serves; `strict` refuses the whole document instead.
///
/// ```swift
/// let spec = try OpenAPISpec(contentsOf: URL(filePath: "openapi.yaml"))
/// try registry.register(StubResponse(json: #"{"id": 1}"#), forOperation: "getUser", in: spec)
/// ```
public struct OpenAPISpec: Sendable {
    /// Every operation served, in the document's order of paths and methods.
    package let operations: [OpenAPIOperation]
    /// Every operation refused, each with its place and why; a request to one gets `501`.
    package let refusals: [OpenAPIRefusal]
    /// Every operation refused, each as its place and why (`#/paths/~1a/get/responses: …`); a
    /// request to one gets `501`.
    public var refused: [String] { refusals.map(\.description) }
    /// What of this document Decoy does not check in requests or cannot serve, each with its
    /// place; empty when it uses nothing Decoy leaves out.
    public let unsupported: [String]
    /// The examples of this document that miss their response's schema, each with its place, the
    /// schema keyword and how (`#/paths/~1a/get/responses/200/content/application~1json/example:
    /// #/components/schemas/A/required: the property "id" is missing`). Each is served only when
    /// `Prefer: example=` names it (the media type's `example` by `example`); the first example
    /// that passes, or else a body made from the schema, is served in its place.
    public let failingExamples: [String]
    /// The path of the first `servers` URL, such as `/api/1.0`; empty when it has none.
    public let serverBasePath: String
    /// The document as parsed, for the schemas that requests are checked against.
    let document: JSONValue
    /// The document's name in errors.
    let source: String

    /// Reads the document at `url`: JSON when it starts with `{`, YAML otherwise.
    ///
    /// `basePath` comes before every path of the document, for clients whose server URL has a
    /// path. With `strict`, an operation that cannot be served refuses the whole document.
    public init(contentsOf url: URL, basePath: String = "", strict: Bool = false) throws(DecoyError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw DecoyError.invalidOpenAPIDocument(
                source: url.path, place: nil, reason: "cannot be read (\(error.localizedDescription))")
        }
        try self.init(data: data, source: url.lastPathComponent, basePath: basePath, strict: strict)
    }

    /// Reads a document from `data`, JSON when it starts with `{`, YAML otherwise; `source`
    /// names it in errors. With `strict`, an operation that cannot be served refuses the whole document.
    public init(
        data: Data, source: String = "the OpenAPI document", basePath: String = "", strict: Bool = false
    ) throws(DecoyError) {
        func fail(_ place: String?, _ reason: String) -> DecoyError {
            DecoyError.invalidOpenAPIDocument(source: source, place: place, reason: reason)
        }
        guard basePath.isEmpty || (basePath.hasPrefix("/") && !basePath.hasSuffix("/")) else {
            throw fail(nil, "the base path \"\(basePath)\" must start with \"/\" and not end with one")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw fail(nil, "is not UTF-8 text") }
        let parsed: OrderedDocument
        do {
            parsed =
                text.first(where: { !$0.isWhitespace }) == "{"
                ? try OrderedDocument(json: text) : try OrderedDocument(yaml: text)
        } catch {
            throw fail(error.place, error.reason)
        }
        guard case .object(let root) = parsed.value, case .string(let version)? = root["openapi"] else {
            throw fail(
                nil,
                "has no \"openapi\" field naming its version; Decoy reads OpenAPI 3.0 and 3.1 (Swagger 2.0 is not read)"
            )
        }
        guard version.hasPrefix("3.0.") || version.hasPrefix("3.1.") else {
            throw fail("#/openapi", "version \(version) is not read; Decoy reads OpenAPI 3.0.x and 3.1.x")
        }
        switch root["paths"] {
        case .object?, nil: break
        default: throw fail("#/paths", "paths must be a map of path templates to path items")
        }
        var reader = OperationReader(document: parsed, basePath: basePath)
        var operations: [OpenAPIOperation] = []
        var refused: [OpenAPIRefusal] = []
        var identifiers: [String: String] = [:]
        for path in parsed.keys(at: "#/paths") {
            for method in OperationReader.methods {
                let pointer = "#/paths/\(path.pointerEscaped)/\(method)"
                do throws(OpenAPIRefusal) {
                    guard let operation = try reader.operation(method, at: path) else { continue }
                    if let id = operation.id {
                        if let other = identifiers[id] {
                            throw OpenAPIRefusal(
                                pointer: pointer, reason: "operationId \"\(id)\" is also the id of \(other)")
                        }
                        identifiers[id] = "\(operation.method) \(path)"
                    }
                    operations.append(operation)
                } catch {
                    let id: String? =
                        if case .string(let id)? = parsed.value.at(pointer)?["operationId"] { id } else { nil }
                    refused.append(
                        OpenAPIRefusal(
                            pointer: error.pointer, reason: error.reason,
                            operation: (.init(method.uppercased()), basePath + path), operationID: id))
                }
            }
        }
        if strict, let first = refused.first {
            let more = refused.count > 1 ? " (and \(refused.count - 1) more operations are refused)" : ""
            throw fail(first.pointer, first.reason + more)
        }
        self.operations = operations
        self.refusals = refused
        self.unsupported = reader.unsupported
        self.failingExamples = reader.failingExamples
        self.serverBasePath = Self.basePath(ofFirstServerIn: root["servers"])
        self.document = parsed.value
        self.source = source
    }

    /// The operation whose `operationId` is `id`.
    package func operation(_ id: String) throws(DecoyError) -> OpenAPIOperation {
        guard let operation = operations.first(where: { $0.id == id }) else {
            if let refusal = refusals.first(where: { $0.operationID == id }) {
                throw DecoyError.invalidOpenAPIDocument(source: source, place: refusal.pointer, reason: refusal.reason)
            }
            let known = operations.compactMap(\.id)
            throw DecoyError.invalidOpenAPIDocument(
                source: source, place: nil,
                reason:
                    """
                    no operation has the operationId \"\(id)\"; it has \
                    \(known.isEmpty ? "none" : known.map { "\"\($0)\"" }.joined(separator: ", "))
                    """
            )
        }
        return operation
    }

    /// `/api/1.0` for `https://app.asana.com/api/1.0`; a relative URL's path as it is.
    private static func basePath(ofFirstServerIn servers: JSONValue?) -> String {
        guard case .array(let servers)? = servers, case .string(let url)? = servers.first?["url"] else { return "" }
        var path = url
        if let scheme = url.range(of: "://") {
            let afterHost = url[scheme.upperBound...]
            path = afterHost.firstIndex(of: "/").map { String(afterHost[$0...]) } ?? ""
        }
        while path.hasSuffix("/") { path.removeLast() }
        return path
    }
}

/// An operation of a document that Decoy refuses to serve: where it is, and why.
package struct OpenAPIRefusal: Error, Sendable, CustomStringConvertible {
    /// The JSON pointer of the operation, or of the spot inside it that is refused.
    package let pointer: String
    /// Why.
    package let reason: String
    /// The method and path template its requests take, answered with `501`; `nil` while the
    /// operation is being read.
    let operation: (method: HTTPRequest.Method?, path: String)?
    /// Its `operationId`, when it has one.
    let operationID: String?

    init(
        pointer: String, reason: String, operation: (method: HTTPRequest.Method?, path: String)? = nil,
        operationID: String? = nil
    ) {
        self.pointer = pointer
        self.reason = reason
        self.operation = operation
        self.operationID = operationID
    }

    /// `#/paths/~1a/get/responses: reason`.
    package var description: String { "\(pointer): \(reason)" }
}

extension JSONValue {
    /// The value at a JSON pointer in a URI fragment, such as `#/paths/~1users/get`.
    func at(_ pointer: String) -> JSONValue? {
        // Requests and the reading of a document walk pointers by the thousand: one pass over the
        // bytes, and only the tokens that need it decoded.
        let bytes = pointer.utf8
        guard bytes.first == UInt8(ascii: "#") else { return nil }
        var value = self
        var start = bytes.index(after: bytes.startIndex)
        guard start != bytes.endIndex else { return value }
        guard bytes[start] == UInt8(ascii: "/") else { return nil }
        start = bytes.index(after: start)
        while true {
            var end = start
            var escaped = false
            while end != bytes.endIndex, bytes[end] != UInt8(ascii: "/") {
                if bytes[end] == UInt8(ascii: "~") || bytes[end] == UInt8(ascii: "%") { escaped = true }
                end = bytes.index(after: end)
            }
            let key = escaped ? Self.unescaped(bytes[start..<end]) : String(Substring(bytes[start..<end]))
            switch value {
            case .object(let members):
                guard let member = members[key] else { return nil }
                value = member
            case .array(let items):
                guard let index = Int(key), items.indices.contains(index) else { return nil }
                value = items[index]
            default:
                return nil
            }
            guard end != bytes.endIndex else { return value }
            start = bytes.index(after: end)
        }
    }

    /// A pointer's token as the member name it stands for: percent-decoded, then `~1` as `/` and
    /// `~0` as `~`, in one pass (Foundation's replacing took half of reading a document).
    private static func unescaped(_ token: Substring.UTF8View) -> String {
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        let input = Array(token)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "%"), index + 2 < input.count, let high = hex(input[index + 1]),
                let low = hex(input[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(input[index])
                index += 1
            }
        }
        var key: [UInt8] = []
        key.reserveCapacity(decoded.count)
        index = 0
        while index < decoded.count {
            if decoded[index] == UInt8(ascii: "~"), index + 1 < decoded.count,
                decoded[index + 1] == UInt8(ascii: "1") || decoded[index + 1] == UInt8(ascii: "0")
            {
                key.append(decoded[index + 1] == UInt8(ascii: "1") ? UInt8(ascii: "/") : UInt8(ascii: "~"))
                index += 2
            } else {
                key.append(decoded[index])
                index += 1
            }
        }
        return String(decoding: key, as: UTF8.self)
    }

    /// The member `key` of an object; `nil` for anything else.
    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }
}

/// `value` as JSON without spaces, its keys sorted, so that equal values read the same.
func compactJSON(_ value: some Encodable) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)).map(Array.init) ?? []
}

extension String {
    /// The text as one token of a JSON pointer.
    var pointerEscaped: String {
        guard utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return self }
        var escaped = ""
        escaped.reserveCapacity(utf8.count + 8)
        for character in unicodeScalars {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
