import Decoy
public import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
import Yams

/// An OpenAPI 3.0 or 3.1 document, JSON or YAML, read once: its operations, each with the route
/// its requests take, and what serving its examples checks requests against.
///
/// ```swift
/// let spec = try OpenAPISpec(contentsOf: URL(filePath: "openapi.yaml"))
/// try registry.register(StubResponse(json: #"{"id": 1}"#), forOperation: "getUser", in: spec)
/// ```
public struct OpenAPISpec: Sendable {
    /// Every operation, in the document's order of paths and methods.
    public let operations: [OpenAPIOperation]
    /// What of this document Decoy does not check in requests or cannot serve, each with its
    /// place; empty when it uses nothing Decoy leaves out.
    public let unsupported: [String]
    /// The document as parsed, for the schemas that requests are checked against.
    let document: JSONValue
    /// The document's name in errors.
    let source: String

    /// Reads the document at `url`: JSON when it starts with `{`, YAML otherwise.
    ///
    /// `basePath` comes before every path of the document, for clients whose server URL has a path.
    public init(contentsOf url: URL, basePath: String = "") throws(OpenAPISpecError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw OpenAPISpecError(
                source: url.path, place: nil, reason: "cannot be read (\(error.localizedDescription))")
        }
        try self.init(data: data, source: url.lastPathComponent, basePath: basePath)
    }

    /// Reads a document from `data`, JSON when it starts with `{`, YAML otherwise; `source`
    /// names it in errors.
    public init(data: Data, source: String = "the OpenAPI document", basePath: String = "") throws(OpenAPISpecError) {
        func fail(_ place: String?, _ reason: String) -> OpenAPISpecError {
            OpenAPISpecError(source: source, place: place, reason: reason)
        }
        guard basePath.isEmpty || (basePath.hasPrefix("/") && !basePath.hasSuffix("/")) else {
            throw fail(nil, "the base path \"\(basePath)\" must start with \"/\" and not end with one")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw fail(nil, "is not UTF-8 text") }
        let isJSON = text.first(where: { !$0.isWhitespace }) == "{"
        let raw = try Self.parse(text, isJSON: isJSON, orThrow: fail)
        guard case .object(let root) = raw, case .string(let version)? = root["openapi"] else {
            throw fail(
                nil,
                "has no \"openapi\" field naming its version; Decoy reads OpenAPI 3.0 and 3.1 (Swagger 2.0 is not read)"
            )
        }
        let document: OpenAPIKit.OpenAPI.Document
        do {
            if version.hasPrefix("3.0.") {
                document = try Self.decode(OpenAPIKit30.OpenAPI.Document.self, from: text, data: data, isJSON: isJSON)
                    .convert(to: .v3_1_1)
            } else if version.hasPrefix("3.1.") {
                document = try Self.decode(OpenAPIKit.OpenAPI.Document.self, from: text, data: data, isJSON: isJSON)
            } else {
                throw fail(".openapi", "version \(version) is not read; Decoy reads OpenAPI 3.0.x and 3.1.x")
            }
        } catch let error as OpenAPISpecError {
            throw error
        } catch {
            let described = OpenAPIKit.OpenAPI.Error(from: error)
            throw fail(
                described.codingPathString.isEmpty ? nil : described.codingPathString, described.localizedDescription)
        }
        let dereferenced: OpenAPIKit.DereferencedDocument
        do {
            dereferenced = try document.locallyDereferenced()
        } catch {
            throw fail(nil, "a reference cannot be resolved: \(error)")
        }
        var reader = OperationReader(document: raw, basePath: basePath)
        var operations: [OpenAPIOperation] = []
        var identifiers: [String: String] = [:]
        for (path, item) in dereferenced.paths {
            for endpoint in item.endpoints {
                let operation = try reader.operation(endpoint, at: path.rawValue, orThrow: fail)
                if let id = operation.id {
                    if let other = identifiers[id] {
                        throw fail(operation.pointer, "operationId \"\(id)\" is also the id of \(other)")
                    }
                    identifiers[id] = "\(operation.method) \(path.rawValue)"
                }
                operations.append(operation)
            }
        }
        self.operations = operations
        self.unsupported = reader.unsupported
        self.document = raw
        self.source = source
    }

    /// The operation whose `operationId` is `id`.
    public func operation(_ id: String) throws(OpenAPISpecError) -> OpenAPIOperation {
        guard let operation = operations.first(where: { $0.id == id }) else {
            let known = operations.compactMap(\.id)
            throw OpenAPISpecError(
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

    /// The document as a JSON value, or the syntax error with its line and column.
    private static func parse(_ text: String, isJSON: Bool, orThrow fail: (String?, String) -> OpenAPISpecError)
        throws(OpenAPISpecError) -> JSONValue
    {
        if isJSON {
            do {
                // JSONSerialization names the offset of a syntax error, where JSONDecoder names none on Linux.
                _ = try JSONSerialization.jsonObject(with: Data(text.utf8))
                return try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            } catch {
                let described = "\((error as NSError).userInfo["NSDebugDescription"] ?? error)"
                let offset = described.firstRange(of: /around character (\d+)/).flatMap {
                    Int(described[$0].split(separator: " ").last ?? "")
                }
                throw fail(offset.map { place(ofOffset: $0, in: text) }, "is not valid JSON: \(described)")
            }
        }
        let loaded: Any?
        do {
            loaded = try Yams.load(yaml: text)
        } catch let error as YamlError {
            switch error {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
                .composer(_, let problem, let mark, _):
                throw fail("line \(mark.line), column \(mark.column)", "is not valid YAML: \(problem)")
            default:
                throw fail(nil, "is not valid YAML: \(error)")
            }
        } catch {
            throw fail(nil, "is not valid YAML: \(error)")
        }
        return JSONValue(yaml: loaded)
    }

    /// `line 3, column 7` for the byte at `offset`.
    private static func place(ofOffset offset: Int, in text: String) -> String {
        let before = text.utf8.prefix(offset)
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        let column =
            before.count
            - (before.lastIndex(of: UInt8(ascii: "\n")).map { before.distance(from: before.startIndex, to: $0) + 1 }
                ?? 0) + 1
        return "line \(line), column \(column)"
    }

    private static func decode<Document: Decodable>(_ type: Document.Type, from text: String, data: Data, isJSON: Bool)
        throws -> Document
    {
        isJSON ? try JSONDecoder().decode(type, from: data) : try YAMLDecoder().decode(type, from: text)
    }
}

extension JSONValue {
    /// The value Yams loaded: mappings with keys as text (`200:` is a number to YAML), dates as YAML wrote them.
    init(yaml value: Any?) {
        switch value {
        case nil, is NSNull: self = .null
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .number(Double(value))
        case let value as Double: self = .number(value)
        case let value as String: self = .string(value)
        case let value as [Any]: self = .array(value.map { JSONValue(yaml: $0) })
        case let value as [AnyHashable: Any]:
            self = .object(
                Dictionary(
                    value.map { ("\($0.key.base)", JSONValue(yaml: $0.value)) }, uniquingKeysWith: { first, _ in first }
                ))
        case let value as [String: Any]: self = .object(value.mapValues { JSONValue(yaml: $0) })
        case let value as Date: self = .string(value.formatted(.iso8601))
        case let value?: self = .string("\(value)")
        }
    }

    /// The value at a JSON pointer in a URI fragment, such as `#/paths/~1users/get`.
    func at(_ pointer: String) -> JSONValue? {
        guard pointer.hasPrefix("#") else { return nil }
        var value = self
        for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            // Requests walk pointers on every check: decode only the tokens that need it.
            var key = String(token)
            if key.utf8.contains(UInt8(ascii: "%")) { key = key.removingPercentEncoding ?? key }
            if key.utf8.contains(UInt8(ascii: "~")) {
                key = key.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            }
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
        }
        return value
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
        replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
