import Decoy
import Foundation
import HTTPTypes
import OpenAPIKit

/// Reads each operation's parameters and body from the parsed document, where every schema keeps
/// the JSON pointer a 400 names, and its responses' examples from OpenAPIKit's dereferenced
/// document, which keeps the document's order.
struct OperationReader {
    let document: JSONValue
    let basePath: String
    /// What of the document is not supported, with its place.
    private(set) var unsupported: [String] = []
    private var checkedSchemas: Set<String> = []

    init(document: JSONValue, basePath: String) {
        self.document = document
        self.basePath = basePath
    }

    mutating func operation(
        _ endpoint: OpenAPIKit.DereferencedPathItem.Endpoint, at path: String,
        orThrow fail: (String?, String) -> OpenAPISpecError
    ) throws(OpenAPISpecError) -> OpenAPIOperation {
        let (itemPointer, item) = resolve("#/paths/\(path.pointerEscaped)")
        let pointer = "\(itemPointer)/\(endpoint.method.rawValue.lowercased())"
        guard let method = HTTPRequest.Method(endpoint.method.rawValue.uppercased()) else {
            throw fail(pointer, "\(endpoint.method.rawValue) is not an HTTP method")
        }
        let raw = document.at(pointer)
        if case .array(let requirements)? = raw?["security"] ?? document["security"], !requirements.isEmpty {
            note(pointer, "security requirements are not checked")
        }
        var parameters: [OpenAPIOperation.Parameter] = []
        for parameter in self.parameters(of: item, at: itemPointer) + self.parameters(of: raw, at: pointer) {
            // An operation's parameter overrides the path item's of the same name and place.
            parameters.removeAll { $0.name == parameter.name && $0.location == parameter.location }
            parameters.append(parameter)
        }
        return OpenAPIOperation(
            id: endpoint.operation.operationId, method: method, path: basePath + path, pointer: pointer,
            parameters: parameters,
            body: body(of: raw, at: pointer),
            responses: try responses(endpoint.operation.responses, at: pointer, orThrow: fail)
        )
    }

    /// The value at `pointer`, following a `$ref` there to its target.
    private func resolve(_ pointer: String) -> (pointer: String, value: JSONValue?) {
        var pointer = pointer
        var seen: Set<String> = []
        while case .string(let reference)? = document.at(pointer)?["$ref"], reference.hasPrefix("#"),
            seen.insert(reference).inserted
        {
            pointer = reference
        }
        return (pointer, document.at(pointer))
    }

    private mutating func parameters(of owner: JSONValue?, at ownerPointer: String) -> [OpenAPIOperation.Parameter] {
        guard case .array(let list)? = owner?["parameters"] else { return [] }
        return list.indices.compactMap { index in
            let (pointer, parameter) = resolve("\(ownerPointer)/parameters/\(index)")
            guard case .string(let name)? = parameter?["name"], case .string(let place)? = parameter?["in"] else {
                return nil
            }
            guard let location = OpenAPIOperation.Parameter.Location(rawValue: place) else {
                note(pointer, "parameters in \(place) are not checked")
                return nil
            }
            // OpenAPI says these header parameters are ignored: the document describes them elsewhere.
            if location == .header, ["accept", "content-type", "authorization"].contains(name.lowercased()) {
                return nil
            }
            let defaultStyle = location == .query || location == .cookie ? "form" : "simple"
            let style = if case .string(let style)? = parameter?["style"] { style } else { defaultStyle }
            let explode = if case .bool(let explode)? = parameter?["explode"] { explode } else { style == "form" }
            if style != defaultStyle || explode != (defaultStyle == "form") {
                note(
                    pointer,
                    """
                    style \(style) with explode \(explode) is not read: values are checked as style \
                    \(defaultStyle) sends them
                    """
                )
            }
            if parameter?["content"] != nil { note(pointer, "a parameter described by content is not checked") }
            let schema = parameter?["schema"] == nil ? nil : "\(pointer)/schema"
            schema.map { noteUnsupported(inSchemaAt: $0) }
            return OpenAPIOperation.Parameter(
                name: name, location: location, required: location == .path || parameter?["required"] == .bool(true),
                pointer: pointer, schema: schema
            )
        }
    }

    private mutating func body(of operation: JSONValue?, at operationPointer: String) -> OpenAPIOperation.Body? {
        guard operation?["requestBody"] != nil else { return nil }
        let (pointer, body) = resolve("\(operationPointer)/requestBody")
        guard case .object(let content)? = body?["content"] else { return nil }
        let mediaTypes = content.keys.sorted().map { mediaType in
            let schemaPointer = "\(pointer)/content/\(mediaType.pointerEscaped)/schema"
            guard content[mediaType]?["schema"] != nil else { return (mediaType: mediaType, schema: String?.none) }
            if Self.isJSON(mediaType) {
                noteUnsupported(inSchemaAt: schemaPointer)
            } else {
                note(schemaPointer, "bodies of \(mediaType) are not checked against their schema")
            }
            return (mediaType: mediaType, schema: Self.isJSON(mediaType) ? schemaPointer : nil)
        }
        return OpenAPIOperation.Body(required: body?["required"] == .bool(true), pointer: pointer, content: mediaTypes)
    }

    private mutating func responses(
        _ responses: OpenAPIKit.DereferencedResponse.Map, at pointer: String,
        orThrow fail: (String?, String) -> OpenAPISpecError
    ) throws(OpenAPISpecError) -> [OpenAPIOperation.Response] {
        var read: [OpenAPIOperation.Response] = []
        for (code, response) in responses {
            let responsePointer = "\(pointer)/responses/\(code.rawValue)"
            let status: OpenAPIOperation.Response.Status
            if code.rawValue == "default" {
                status = .default
            } else if let number = Int(code.rawValue) {
                status = .code(number)
            } else if code.rawValue.count == 3, let first = code.rawValue.first?.wholeNumberValue,
                code.rawValue.uppercased().hasSuffix("XX")
            {
                status = .range(first)
            } else {
                throw fail(
                    responsePointer, "\"\(code.rawValue)\" is not a status code, a range such as 2XX, or default")
            }
            if let headers = response.headers, !headers.isEmpty {
                note(responsePointer, "response headers are not served")
            }
            var content: [(mediaType: String, examples: [OpenAPIOperation.Example])] = []
            for (mediaType, described) in response.content {
                let examplesPointer = "\(responsePointer)/content/\(mediaType.rawValue.pointerEscaped)"
                var examples: [OpenAPIOperation.Example] = []
                if let example = described.example {
                    examples.append(.init(name: nil, body: encode(example, as: mediaType.rawValue)))
                }
                for (name, example) in described.examples ?? [:] {
                    if let value = example.dataOrLegacyValue {
                        examples.append(.init(name: name, body: encode(value, as: mediaType.rawValue)))
                    } else {
                        note(
                            "\(examplesPointer)/examples/\(name.pointerEscaped)",
                            "examples by externalValue are not served")
                    }
                }
                if examples.isEmpty {
                    // The response itself may be a reference, and the schema's pointer starts there.
                    let schemaPointer =
                        "\(resolve(responsePointer).pointer)/content/\(mediaType.rawValue.pointerEscaped)/schema"
                    if let value = SchemaExample(document: document).value(forSchemaAt: schemaPointer) {
                        examples.append(.init(name: nil, body: encode(value, as: mediaType.rawValue)))
                    } else {
                        note(examplesPointer, "no example, and no schema to make one from: answered with an empty body")
                    }
                }
                content.append((mediaType: mediaType.rawValue, examples: examples))
            }
            read.append(OpenAPIOperation.Response(status: status, content: content))
        }
        return read
    }

    /// JSON for a JSON media type, and for others a string example as it is.
    private func encode(_ value: AnyCodable, as mediaType: String) -> [UInt8] {
        if !Self.isJSON(mediaType), let text = value.value as? String { return Array(text.utf8) }
        return compactJSON(value)
    }

    private func encode(_ value: JSONValue, as mediaType: String) -> [UInt8] {
        if !Self.isJSON(mediaType), case .string(let text) = value { return Array(text.utf8) }
        return compactJSON(value)
    }

    static func isJSON(_ mediaType: String) -> Bool {
        let type =
            mediaType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return type == "application/json" || type.hasSuffix("+json")
    }

    /// Notes `what` at `pointer` once: a path item's parameters are read for each of its operations.
    private mutating func note(_ pointer: String, _ what: String) {
        let line = "\(pointer): \(what)"
        if !unsupported.contains(line) { unsupported.append(line) }
    }

    /// Notes each keyword of the schema at `pointer`, and of the schemas inside it, that requests are not checked for.
    private mutating func noteUnsupported(inSchemaAt pointer: String) {
        let (pointer, schema) = resolve(pointer)
        guard checkedSchemas.insert(pointer).inserted, case .object(let keywords)? = schema else { return }
        for keyword in keywords.keys.sorted()
        where !SchemaValidator.checked.contains(keyword) && !SchemaValidator.annotations.contains(keyword)
            && !keyword.hasPrefix("x-")
        {
            note("\(pointer)/\(keyword.pointerEscaped)", "the keyword \(keyword) is not checked")
        }
        if case .string(let format)? = keywords["format"], SchemaValidator.formats[format] == nil {
            note("\(pointer)/format", "the format \(format) is not checked")
        }
        for keyword in ["items", "additionalProperties", "not"] where keywords[keyword] != nil {
            noteUnsupported(inSchemaAt: "\(pointer)/\(keyword)")
        }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            if case .array(let schemas)? = keywords[keyword] {
                for index in schemas.indices { noteUnsupported(inSchemaAt: "\(pointer)/\(keyword)/\(index)") }
            }
        }
        if case .object(let properties)? = keywords["properties"] {
            for name in properties.keys.sorted() {
                noteUnsupported(inSchemaAt: "\(pointer)/properties/\(name.pointerEscaped)")
            }
        }
    }
}
