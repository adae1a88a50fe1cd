import Decoy
import Foundation
import HTTPTypes

/// Reads each operation from the parsed document, where every schema keeps the JSON pointer a 400
/// names: its parameters, its body, and its responses with their examples in the document's order.
/// What it cannot serve it throws as an ``OpenAPIRefusal`` for that operation alone.
struct OperationReader {
    /// The methods of a path item, in the order OpenAPI lists them.
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    let parsed: OrderedDocument
    let basePath: String
    /// What of the document is not supported, with its place.
    private(set) var unsupported: [String] = []
    /// The document's examples that miss their schemas, each with its place and its first miss.
    private(set) var failingExamples: [String] = []
    private var noted: Set<String> = []
    private var checkedSchemas: Set<String> = []
    /// For each schema already walked, the first reference under it that leads nowhere.
    private var brokenReferences: [String: OpenAPIRefusal?] = [:]
    private let validator: SchemaValidator
    /// Makes bodies from schemas, each schema once for the whole document.
    private let made: SchemaExample

    var document: JSONValue { parsed.value }

    init(document: OrderedDocument, basePath: String) {
        self.parsed = document
        self.basePath = basePath
        validator = SchemaValidator(document: document.value)
        made = SchemaExample(validator: validator)
    }

    /// The operation `method` of the path item at `path`; `nil` when the item has none.
    mutating func operation(_ method: String, at path: String) throws(OpenAPIRefusal) -> OpenAPIOperation? {
        let (itemPointer, item) = try resolve("#/paths/\(path.pointerEscaped)")
        guard let raw = item?[method] else { return nil }
        let pointer = "\(itemPointer)/\(method)"
        guard case .object = raw else { throw OpenAPIRefusal(pointer: pointer, reason: "an operation must be a map") }
        let id: String?
        switch raw["operationId"] {
        case .string(let value)?: id = value
        case nil: id = nil
        default: throw OpenAPIRefusal(pointer: "\(pointer)/operationId", reason: "an operationId must be a string")
        }
        if case .array(let requirements)? = raw["security"] ?? document["security"], !requirements.isEmpty {
            note(pointer, "security requirements are not checked")
        }
        var parameters: [OpenAPIOperation.Parameter] = []
        for parameter in try self.parameters(of: item, at: itemPointer) + self.parameters(of: raw, at: pointer) {
            // An operation's parameter overrides the path item's of the same name and place.
            parameters.removeAll { $0.name == parameter.name && $0.location == parameter.location }
            parameters.append(parameter)
        }
        return OpenAPIOperation(
            id: id, method: HTTPRequest.Method(method.uppercased())!, path: basePath + path, pointer: pointer,
            parameters: parameters,
            body: try body(of: raw, at: pointer),
            responses: try responses(of: raw, at: pointer)
        )
    }

    /// The value at `pointer`, following a `$ref` there to its target; a reference to nothing is refused.
    /// The refusal of a `$ref` at `pointer` that the document cannot resolve: one to another
    /// document, or to nothing in this one; `nil` when it resolves.
    private func unresolvable(_ reference: String, at pointer: String) -> OpenAPIRefusal? {
        guard reference.hasPrefix("#"), document.at(reference) != nil else {
            return OpenAPIRefusal(
                pointer: "\(pointer)/$ref",
                reason: reference.hasPrefix("#")
                    ? "the reference \(reference) leads nowhere in the document"
                    : "the reference \(reference) is to another document, which Decoy does not read")
        }
        return nil
    }

    private func resolve(_ pointer: String) throws(OpenAPIRefusal) -> (pointer: String, value: JSONValue?) {
        var pointer = pointer
        var seen: Set<String> = []
        while case .string(let reference)? = document.at(pointer)?["$ref"], seen.insert(reference).inserted {
            if let refusal = unresolvable(reference, at: pointer) { throw refusal }
            pointer = reference
        }
        return (pointer, document.at(pointer))
    }

    private mutating func parameters(of owner: JSONValue?, at ownerPointer: String) throws(OpenAPIRefusal)
        -> [OpenAPIOperation.Parameter]
    {
        guard let list = owner?["parameters"] else { return [] }
        guard case .array(let list) = list else {
            throw OpenAPIRefusal(pointer: "\(ownerPointer)/parameters", reason: "parameters must be a list")
        }
        var read: [OpenAPIOperation.Parameter] = []
        for index in list.indices {
            let (pointer, parameter) = try resolve("\(ownerPointer)/parameters/\(index)")
            guard case .string(let name)? = parameter?["name"], case .string(let place)? = parameter?["in"] else {
                throw OpenAPIRefusal(pointer: pointer, reason: "a parameter needs a name and an in")
            }
            guard let location = OpenAPIOperation.Parameter.Location(rawValue: place) else {
                note(pointer, "parameters in \(place) are not checked")
                continue
            }
            // OpenAPI says these header parameters are ignored: the document describes them elsewhere.
            if location == .header, ["accept", "content-type", "authorization"].contains(name.lowercased()) {
                continue
            }
            let defaultStyle = location == .query || location == .cookie ? "form" : "simple"
            let style = if case .string(let style)? = parameter?["style"] { style } else { defaultStyle }
            let explode = if case .bool(let explode)? = parameter?["explode"] { explode } else { style == "form" }
            if !ParameterStyle.reads(style, in: location) {
                note(pointer, "style \(style) is not read: values are checked as style \(defaultStyle) sends them")
            }
            if parameter?["content"] != nil { note(pointer, "a parameter described by content is not checked") }
            let schema = parameter?["schema"] == nil ? nil : "\(pointer)/schema"
            if let schema {
                try refuseBrokenReferences(inSchemaAt: schema)
                noteUnsupported(inSchemaAt: schema)
            }
            read.append(
                OpenAPIOperation.Parameter(
                    name: name, location: location,
                    required: location == .path || parameter?["required"] == .bool(true),
                    style: ParameterStyle.reads(style, in: location) ? style : defaultStyle,
                    explode: explode, pointer: pointer, schema: schema
                ))
        }
        return read
    }

    private mutating func body(of operation: JSONValue, at operationPointer: String) throws(OpenAPIRefusal)
        -> OpenAPIOperation.Body?
    {
        guard operation["requestBody"] != nil else { return nil }
        let (pointer, body) = try resolve("\(operationPointer)/requestBody")
        guard case .object? = body?["content"] else { return nil }
        var mediaTypes: [(mediaType: String, schema: String?)] = []
        for mediaType in parsed.keys(at: "\(pointer)/content") {
            let schemaPointer = "\(pointer)/content/\(mediaType.pointerEscaped)/schema"
            guard body?["content"]?[mediaType]?["schema"] != nil else {
                mediaTypes.append((mediaType: mediaType, schema: nil))
                continue
            }
            try refuseBrokenReferences(inSchemaAt: schemaPointer)
            if Self.isJSON(mediaType) {
                noteUnsupported(inSchemaAt: schemaPointer)
            } else {
                note(schemaPointer, "bodies of \(mediaType) are not checked against their schema")
            }
            mediaTypes.append((mediaType: mediaType, schema: Self.isJSON(mediaType) ? schemaPointer : nil))
        }
        return OpenAPIOperation.Body(required: body?["required"] == .bool(true), pointer: pointer, content: mediaTypes)
    }

    private mutating func responses(of operation: JSONValue, at pointer: String) throws(OpenAPIRefusal)
        -> [OpenAPIOperation.Response]
    {
        let mapPointer = "\(pointer)/responses"
        switch operation["responses"] {
        case .object?: break
        // 3.1 lets an operation describe no responses; it is answered with none of them.
        case nil: return []
        default:
            throw OpenAPIRefusal(pointer: mapPointer, reason: "responses must be a map of status codes to responses")
        }
        var read: [OpenAPIOperation.Response] = []
        for code in parsed.keys(at: mapPointer) where !code.hasPrefix("x-") {
            let (responsePointer, response) = try resolve("\(mapPointer)/\(code.pointerEscaped)")
            let status: OpenAPIOperation.Response.Status
            if code == "default" {
                status = .default
            } else if let number = Int(code), (100..<600).contains(number) {
                status = .code(number)
            } else if code.count == 3, let first = code.first?.wholeNumberValue, (1...5).contains(first),
                code.uppercased().hasSuffix("XX")
            {
                status = .range(first)
            } else {
                throw OpenAPIRefusal(
                    pointer: "\(mapPointer)/\(code.pointerEscaped)",
                    reason: "\"\(code)\" is not a status code, a range such as 2XX, or default")
            }
            guard case .object? = response else {
                throw OpenAPIRefusal(pointer: responsePointer, reason: "a response must be a map")
            }
            var requiredHeaders: [(name: String, pointer: String)] = []
            if case .object(let headers)? = response?["headers"], !headers.isEmpty {
                note(responsePointer, "response headers are not served")
                for name in parsed.keys(at: "\(responsePointer)/headers") where name.lowercased() != "content-type" {
                    let (headerPointer, header) = try resolve("\(responsePointer)/headers/\(name.pointerEscaped)")
                    if header?["required"] == .bool(true) {
                        requiredHeaders.append((name, "\(headerPointer)/required"))
                    }
                }
            }
            var content: [(mediaType: String, examples: [OpenAPIOperation.Example])] = []
            for mediaType in parsed.keys(at: "\(responsePointer)/content") {
                let mediaPointer = "\(responsePointer)/content/\(mediaType.pointerEscaped)"
                content.append((mediaType: mediaType, examples: try examples(at: mediaPointer, mediaType: mediaType)))
            }
            read.append(
                OpenAPIOperation.Response(
                    status: status, pointer: responsePointer, content: content, requiredHeaders: requiredHeaders))
        }
        return read
    }

    /// The examples of one media type of a response, in the document's order; one made from its
    /// schema when it has none.
    private mutating func examples(at mediaPointer: String, mediaType: String) throws(OpenAPIRefusal)
        -> [OpenAPIOperation.Example]
    {
        let described = document.at(mediaPointer)
        var examples: [OpenAPIOperation.Example] = []
        if let example = described?["example"] {
            examples.append(
                .init(name: "example", pointer: "\(mediaPointer)/example", body: encode(example, as: mediaType)))
        }
        for name in parsed.keys(at: "\(mediaPointer)/examples") {
            let place = "\(mediaPointer)/examples/\(name.pointerEscaped)"
            let (examplePointer, example) = try resolve(place)
            if let value = example?["value"] {
                examples.append(.init(name: name, pointer: place, body: encode(value, as: mediaType)))
            } else {
                note(examplePointer, "examples by externalValue are not served")
            }
        }
        let schemaPointer = "\(mediaPointer)/schema"
        guard described?["schema"] != nil else {
            if examples.isEmpty {
                note(mediaPointer, "no example, and no schema to make one from: answered with an empty body")
            }
            return examples
        }
        try refuseBrokenReferences(inSchemaAt: schemaPointer)
        guard Self.isJSON(mediaType) else {
            if examples.isEmpty, let value = made.value(forSchemaAt: schemaPointer) {
                examples.append(.init(name: nil, pointer: nil, body: encode(value, as: mediaType)))
            }
            return examples
        }
        // An example that misses its own schema is served only when asked for by name.
        for index in examples.indices {
            guard let value = JSONValue(parsing: Data(examples[index].body)),
                let miss = validator.violations(of: value, schemaAt: schemaPointer).first
            else { continue }
            examples[index].passes = false
            let line = "\(examples[index].pointer ?? mediaPointer): \(miss.schemaPath): \(miss.message)"
            // A response shared by several operations is read for each.
            if noted.insert(line).inserted { failingExamples.append(line) }
        }
        if !examples.contains(where: \.passes) {
            if let value = made.value(forSchemaAt: schemaPointer) {
                examples.append(.init(name: nil, pointer: nil, body: encode(value, as: mediaType)))
                if let miss = validator.violations(of: value, schemaAt: schemaPointer).first {
                    note(miss.schemaPath, "the example made from the schema misses it: \(miss.message)")
                }
            } else {
                note(mediaPointer, "no example, and no schema to make one from: answered with an empty body")
            }
        }
        return examples
    }

    /// JSON for a JSON media type, and for others a string example as it is.
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
        if noted.insert(line).inserted { unsupported.append(line) }
    }

    /// Refuses a schema with a reference, anywhere under it, that leads nowhere; a reference back
    /// up the schema (a recursive schema) is fine.
    private mutating func refuseBrokenReferences(inSchemaAt pointer: String) throws(OpenAPIRefusal) {
        if let refusal = brokenReference(inSchemaAt: pointer) { throw refusal }
    }

    private mutating func brokenReference(inSchemaAt pointer: String) -> OpenAPIRefusal? {
        if let known = brokenReferences[pointer] { return known }
        // A cycle comes back here before the answer is known: it breaks nothing by itself.
        brokenReferences[pointer] = .some(nil)
        let found = findBrokenReference(inSchemaAt: pointer)
        brokenReferences[pointer] = .some(found)
        return found
    }

    private mutating func findBrokenReference(inSchemaAt pointer: String) -> OpenAPIRefusal? {
        guard case .object(let keywords)? = document.at(pointer) else { return nil }
        if case .string(let reference)? = keywords["$ref"] {
            if let refusal = unresolvable(reference, at: pointer) { return refusal }
            if let found = brokenReference(inSchemaAt: reference) { return found }
        }
        for keyword in ["items", "additionalProperties", "not"] where keywords[keyword] != nil {
            if let found = brokenReference(inSchemaAt: "\(pointer)/\(keyword)") { return found }
        }
        for keyword in ["allOf", "anyOf", "oneOf", "prefixItems"] {
            guard case .array(let schemas)? = keywords[keyword] else { continue }
            for index in schemas.indices {
                if let found = brokenReference(inSchemaAt: "\(pointer)/\(keyword)/\(index)") { return found }
            }
        }
        if case .object(let properties)? = keywords["properties"] {
            for name in properties.keys.sorted() {
                if let found = brokenReference(inSchemaAt: "\(pointer)/properties/\(name.pointerEscaped)") {
                    return found
                }
            }
        }
        return nil
    }

    /// Notes each keyword of the schema at `pointer`, and of the schemas inside it, that requests are not checked for.
    private mutating func noteUnsupported(inSchemaAt pointer: String) {
        var pointer = pointer
        var seen: Set<String> = []
        while case .string(let reference)? = document.at(pointer)?["$ref"], seen.insert(reference).inserted {
            pointer = reference
        }
        guard checkedSchemas.insert(pointer).inserted, case .object(let keywords)? = document.at(pointer) else {
            return
        }
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
