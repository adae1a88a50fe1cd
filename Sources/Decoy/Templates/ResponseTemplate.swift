import Foundation
import HTTPTypes

/// Text in WireMock's response-template dialect of Handlebars, parsed once, rendered per request.
///
/// A template names parts of the request (`{{request.path.[1]}}`, `{{request.query.page}}`,
/// `{{request.headers.X-Id}}`, `{{jsonPath request.body '$.name'}}`), the time (`{{now}}`), random
/// values (`{{randomValue length=8}}`, `{{uuid}}`), and chooses with `#if`, `#unless`, `#each`
/// and `#eq`. `{{value}}` is HTML-escaped, `{{{value}}}` is written as it is, as in WireMock.
/// See [Response templates](templates.md).
package struct ResponseTemplate: Sendable, CustomStringConvertible {
    /// The template as written.
    package let description: String
    let nodes: [TemplateNode]

    /// Parses `text`; the error says where and what is wrong, and names the helper concerned.
    package init(_ text: String) throws(DecoyError) {
        try self.init(text, requestName: "request")
    }

    /// Parses `text`, in which the request goes by `requestName`.
    package init(_ text: String, requestName: String) throws(DecoyError) {
        description = text
        nodes = try TemplateParser.parse(text, requestName: requestName)
        self.requestName = requestName
        var constant: String? = ""
        for node in nodes {
            guard case .text(let part) = node else {
                constant = nil
                break
            }
            constant? += part
        }
        constantText = constant
        pieces = Self.pieces(of: nodes)
    }

    /// The name the request goes by in the template.
    let requestName: String

    /// The text every request renders, when the template writes only text: rendered once, as
    /// most header values of a templated response are.
    let constantText: String?

    /// The template as text, already in bytes, and reads of the request at its top, when it is
    /// made of those alone, as most response templates are: rendered without a renderer's scopes.
    // Pays: scripts/benchmarks templates, "templated" under callgrind: with `TemplateContext.write`,
    // rendering its body fell from 10.9k to 5.6k instructions per request.
    private let pieces: [Piece]?

    private enum Piece {
        case text([UInt8])
        case read(RequestRead, escaped: Bool)
    }

    private static func pieces(of nodes: [TemplateNode]) -> [Piece]? {
        var pieces: [Piece] = []
        for node in nodes {
            switch node {
            case .text(let text): pieces.append(.text(Array(text.utf8)))
            case .output(.request(let read), let escaped): pieces.append(.read(read, escaped: escaped))
            default: return nil
            }
        }
        return pieces
    }

    /// The text for one request.
    func render(_ context: TemplateContext) throws(TemplateRenderError) -> String {
        if let constantText { return constantText }
        return String(decoding: try renderedUTF8(context), as: UTF8.self)
    }

    /// The text for one request as UTF-8, as a body is sent.
    func renderedData(_ context: TemplateContext) throws(TemplateRenderError) -> Data {
        if let constantText { return Data(constantText.utf8) }
        return Data(try renderedUTF8(context))
    }

    /// Rendered into bytes, which grow at less cost than a string.
    // Pays: scripts/benchmarks instructions, "templated answer", against appending to a string.
    private func renderedUTF8(_ context: TemplateContext) throws(TemplateRenderError) -> [UInt8] {
        var output: [UInt8] = []
        // What most templates write is about as long as they are.
        output.reserveCapacity(description.utf8.count)
        if let pieces {
            for piece in pieces {
                switch piece {
                case .text(let bytes): output.append(contentsOf: bytes)
                case .read(let read, let escaped): context.write(read, escaped: escaped, into: &output)
                }
            }
            return output
        }
        var renderer = TemplateRenderer(context: context, requestName: requestName)
        try renderer.render(nodes, into: &output)
        return output
    }
}

/// What a template renders against: the request, the time and a random source.
struct TemplateContext {
    let request: StubRequest
    /// The clock `{{now}}` reads; `nil` for the system's, rather than `Date.init`, which cost each
    /// render an allocation (scripts/benchmarks templates, "templated" under callgrind: 0.3k instructions).
    let clock: (@Sendable () -> Date)?
    let random: RandomSource

    init(request: StubRequest, now clock: (@Sendable () -> Date)?, random: RandomSource) {
        self.request = request
        self.clock = clock
        self.random = random
    }

    /// The time `{{now}}` writes.
    func now() -> Date { clock?() ?? Date() }

    /// The part `name` of the request as the template sees it (`path`, `query`, …), made when
    /// named: a template pays only for the parts it reads.
    func requestPart(_ name: String) -> TemplateValue {
        switch name {
        case "url":
            return .string(request.target)
        case "path":
            return .path(request.path, segments: pathSegments.map(String.init))
        case "pathSegments":
            return .list(pathSegments.map { .string(String($0)) })
        case "method":
            return .string(request.method.rawValue)
        case "query":
            return .map(
                Self.grouped(request.queryItems.map { ($0.name, $0.value ?? "") }, caseInsensitive: false),
                caseInsensitive: false)
        case "headers":
            // By name, as WireMock's map of them is ordered.
            let headers = Self.grouped(request.headerFields.map { ($0.name.rawName, $0.value) }, caseInsensitive: true)
            return .map(headers.sorted { $0.key.lowercased() < $1.key.lowercased() }, caseInsensitive: true)
        case "cookies":
            let pairs = request.headerFields[values: .cookie].flatMap { $0.split(separator: ";") }.map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (
                    parts[0].trimmingCharacters(in: .whitespaces),
                    parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
                )
            }
            return .map(Self.grouped(pairs, caseInsensitive: false), caseInsensitive: false)
        case "body":
            return .string(request.bodyText)
        default:
            return .null
        }
    }

    /// The value `read` gives, read straight from the request.
    func value(of read: RequestRead) -> TemplateValue {
        switch read {
        case .method: return .string(request.method.rawValue)
        case .url: return .string(request.target)
        case .pathSegment(let index):
            var path = request.path
            return path.withUTF8 { bytes in
                Self.part(index, of: bytes, separatedBy: UInt8(ascii: "/")).map {
                    .string(String(decoding: $0, as: UTF8.self))
                } ?? .null
            }
        case .query(let name): return Self.values(request.queryValues(name))
        case .header(let name): return Self.values(request.headerFields[values: name])
        }
    }

    /// Writes the text of the value `read` gives, HTML-escaped when `escaped`, as the renderer
    /// writes a value: read from the request's bytes in place, without making a value or its text,
    /// when what it reads is plain (ASCII, nothing percent-encoded), and through ``value(of:)``
    /// otherwise, so that both ways write the same.
    // Pays: scripts/benchmarks templates, "templated" under callgrind: its query value alone cost
    // 3.4k instructions read through `queryValues`; its three reads now cost 1.2k.
    func write(_ read: RequestRead, escaped: Bool, into output: inout [UInt8]) {
        var written = false
        switch read {
        case .method:
            written = Self.write(request.method.rawValue, escaped: escaped, into: &output)
        case .url:
            written = Self.write(request.target, escaped: escaped, into: &output)
        case .pathSegment(let index):
            var path = request.path
            written = path.withUTF8 { bytes in
                guard let segment = Self.part(index, of: bytes, separatedBy: UInt8(ascii: "/")) else { return true }
                return Self.write(segment, escaped: escaped, into: &output)
            }
        case .query(let name):
            guard var query = request.query else { return }
            var name = name
            written = query.withUTF8 { query in
                name.withUTF8 { name in
                    guard Self.isPlain(name), Self.isPlain(query) else { return false }
                    guard let value = Self.firstValue(named: name, in: query) else { return true }
                    return Self.write(value, escaped: escaped, into: &output)
                }
            }
        case .header:
            break
        }
        guard !written else { return }
        let text = value(of: read).text
        output.append(utf8: escaped ? TemplateValue.escaped(text) : text)
    }

    /// Appends `text` when it needs no escaping; `false`, having written nothing, when it does.
    private static func write(_ text: String, escaped: Bool, into output: inout [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { write($0, escaped: escaped, into: &output) }
    }

    /// Appends `bytes` when they need no escaping; `false`, having written nothing, when they do.
    private static func write(_ bytes: UnsafeBufferPointer<UInt8>, escaped: Bool, into output: inout [UInt8]) -> Bool {
        guard !escaped || !bytes.contains(where: TemplateValue.isEscaped) else { return false }
        output.append(contentsOf: bytes)
        return true
    }

    /// Whether query text is ASCII with no `%` or `+`: its names compare byte by byte as strings
    /// do, and its values are written as they are, decoding to themselves.
    private static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.contains { $0 >= 0x80 || $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }
    }

    /// The non-empty part at `index` of `bytes` split at `separator`.
    private static func part(_ index: Int, of bytes: UnsafeBufferPointer<UInt8>, separatedBy separator: UInt8)
        -> UnsafeBufferPointer<UInt8>?
    {
        var found: UnsafeBufferPointer<UInt8>?
        var skipped = 0
        bytes.forEachPart(separatedBy: separator) { part in
            guard skipped == index else {
                skipped += 1
                return true
            }
            found = part
            return false
        }
        return found
    }

    /// The value of the first pair of a plain query named `name` (empty for a pair without `=`),
    /// as ``StubRequest/queryValues(_:)`` gives it first.
    private static func firstValue(named name: UnsafeBufferPointer<UInt8>, in query: UnsafeBufferPointer<UInt8>)
        -> UnsafeBufferPointer<UInt8>?
    {
        var found: UnsafeBufferPointer<UInt8>?
        query.forEachPart(separatedBy: UInt8(ascii: "&")) { pair in
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.count
            guard UnsafeBufferPointer(rebasing: pair[..<equals]).elementsEqual(name) else { return true }
            found = UnsafeBufferPointer(rebasing: pair[Swift.min(equals + 1, pair.count)...])
            return false
        }
        return found
    }

    private static func values(_ values: [String]) -> TemplateValue {
        values.isEmpty ? .null : .values(values)
    }

    /// The path's segments as a template indexes them, without empty ones.
    private var pathSegments: [Substring] {
        var segments: [Substring] = []
        Substring(request.path).forEachPart(separatedBy: "/") { segment in
            segments.append(segment)
            return true
        }
        return segments
    }

    /// The whole request, for a template that names `request` alone.
    func requestValue() -> TemplateValue {
        .map(TemplateParser.requestParts.map { ($0, requestPart($0)) }, caseInsensitive: false)
    }

    /// Name–value pairs with each name once, its values in order.
    private static func grouped(_ pairs: [(String, String)], caseInsensitive: Bool) -> [(
        key: String, value: TemplateValue
    )] {
        var names: [String] = []
        var values: [String: [String]] = [:]
        for (name, value) in pairs {
            let key = caseInsensitive ? name.lowercased() : name
            if values[key] == nil { names.append(name) }
            values[key, default: []].append(value)
        }
        return names.map { ($0, .values(values[caseInsensitive ? $0.lowercased() : $0] ?? [])) }
    }
}

/// Walks the nodes of a template for one request.
private struct TemplateRenderer {
    /// One level of context: `this`, the block parameters and `@` data of a block.
    struct Scope {
        var value: TemplateValue
        var parameters: [String: TemplateValue] = [:]
        var data: [String: TemplateValue] = [:]
    }

    let context: TemplateContext
    private var scopes: [Scope]
    /// The parts of the request named so far, each made once per render.
    private var requestParts: [String: TemplateValue] = [:]
    /// What `assign` and `parseJson` set, by name.
    private var variables: [String: TemplateValue] = [:]

    private let requestName: String

    init(context: TemplateContext, requestName: String) {
        self.context = context
        self.requestName = requestName
        scopes = [Scope(value: .null)]
    }

    mutating func render(_ nodes: [TemplateNode], into output: inout [UInt8]) throws(TemplateRenderError) {
        for node in nodes {
            switch node {
            case .text(let text):
                output.append(utf8: text)
            case .output(.request(let read), let escaped):
                context.write(read, escaped: escaped, into: &output)
            case .output(let expression, let escaped):
                let text = try evaluate(expression).text
                output.append(utf8: escaped ? TemplateValue.escaped(text) : text)
            case .block(let block):
                try render(block, into: &output)
            }
        }
    }

    private mutating func render(_ block: TemplateBlock, into output: inout [UInt8]) throws(TemplateRenderError) {
        let arguments = try block.parameters.map { expression throws(TemplateRenderError) in try evaluate(expression) }
        switch block.kind {
        case .if:
            try render(arguments[0].isTruthy ? block.body : block.inverse, into: &output)
        case .unless:
            try render(arguments[0].isTruthy ? block.inverse : block.body, into: &output)
        case .with:
            guard arguments[0].isTruthy else { return try render(block.inverse, into: &output) }
            try within(
                Scope(value: arguments[0], parameters: parameters(block, [arguments[0]])), block.body, into: &output)
        case .each:
            let items: [(key: String?, value: TemplateValue)]
            if let members = arguments[0].members {
                items = members.map { ($0.key, $0.value) }
            } else if let elements = arguments[0].elements {
                items = elements.map { (nil, $0) }
            } else {
                items = arguments[0].isTruthy ? [(nil, arguments[0])] : []
            }
            guard !items.isEmpty else { return try render(block.inverse, into: &output) }
            for (index, item) in items.enumerated() {
                var data: [String: TemplateValue] = [
                    "index": .number(Double(index)), "first": .bool(index == 0),
                    "last": .bool(index == items.count - 1),
                ]
                if let key = item.key { data["key"] = .string(key) }
                let second: TemplateValue = item.key.map(TemplateValue.string) ?? .number(Double(index))
                try within(
                    Scope(value: item.value, parameters: parameters(block, [item.value, second]), data: data),
                    block.body, into: &output)
            }
        case .value(let helper):
            let hash = try evaluate(block.hash)
            try render(try helper.call(arguments, hash, context).isTruthy ? block.body : block.inverse, into: &output)
        case .variable(let parsesJSON):
            var bytes: [UInt8] = []
            try render(block.body, into: &bytes)
            let text = String(decoding: bytes, as: UTF8.self)
            // Handlebars-Java's `assign` keeps its body trimmed.
            variables[arguments[0].text] =
                parsesJSON
                ? try TemplateHelper.parseJSON(text) : .string(text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    private func parameters(_ block: TemplateBlock, _ values: [TemplateValue]) -> [String: TemplateValue] {
        Dictionary(zip(block.blockParameters, values), uniquingKeysWith: { first, _ in first })
    }

    private mutating func within(_ scope: Scope, _ nodes: [TemplateNode], into output: inout [UInt8])
        throws(TemplateRenderError)
    {
        scopes.append(scope)
        defer { scopes.removeLast() }
        try render(nodes, into: &output)
    }

    private mutating func evaluate(_ expression: TemplateExpression) throws(TemplateRenderError) -> TemplateValue {
        switch expression {
        case .literal(let value):
            return value
        case .path(let path):
            return lookup(path)
        case .call(let helper, let parameters, let hash):
            let arguments = try parameters.map { expression throws(TemplateRenderError) in try evaluate(expression) }
            return try helper.call(arguments, try evaluate(hash), context)
        case .jsonPath(let source, let path):
            let value = try evaluate(source)
            let document: JSONValue? =
                if case .json(let json) = value { json } else { JSONValue(parsing: Data(value.text.utf8)) }
            // WireMock writes nothing for a body that is not JSON or a path that selects nothing.
            guard let document else { return .null }
            let selected = path.select(in: document)
            if path.isIndefinite { return selected.isEmpty ? .null : .json(.array(selected)) }
            guard let first = selected.first else { return .null }
            switch (first, path.function?.name) {
            // Java doubles, written with a fraction; `keys()` is a Java set, written `[a, b]`.
            case (.number(let number), _) where path.yieldsDecimals: return .decimal(number)
            case (.array(let keys), .keys): return .list(keys.map { TemplateValue($0) })
            default: return TemplateValue(first)
            }
        case .xPath(let source, let path):
            let text = try evaluate(source).text
            // WireMock writes its complaint in place of the value.
            guard let document = XMLTree(parsing: Data(text.utf8)) else {
                return .string("[ERROR: \(text) is not valid XML]")
            }
            return .values(path.items(in: document).map(\.written))
        case .assignJSON(let source, let name):
            variables[name] = try TemplateHelper.parseJSON(try evaluate(source).text)
            return .null
        case .request(let read):
            return context.value(of: read)
        }
    }

    private mutating func evaluate(_ hash: [String: TemplateExpression]) throws(TemplateRenderError) -> [String:
        TemplateValue]
    {
        var values: [String: TemplateValue] = [:]
        for (name, expression) in hash { values[name] = try evaluate(expression) }
        return values
    }

    private mutating func lookup(_ path: TemplatePath) -> TemplateValue {
        let level = max(scopes.count - 1 - path.parents, 0)
        if path.isData {
            guard let name = path.segments.first else { return .null }
            return path.segments.dropFirst().reduce(scopes[level].data[name] ?? .null) { $0.member($1) }
        }
        guard let first = path.segments.first else { return scopes[level].value }
        var value: TemplateValue
        if path.parents == 0, let parameter = scopes.reversed().lazy.compactMap({ $0.parameters[first] }).first {
            value = parameter
        } else if level == 0, first == requestName {
            guard let part = path.segments.dropFirst().first else { return context.requestValue() }
            if let made = requestParts[part] {
                value = made
            } else {
                value = context.requestPart(part)
                requestParts[part] = value
            }
            for segment in path.segments.dropFirst(2) { value = value.member(segment) }
            return value
        } else {
            value = scopes[level].value.member(first)
            if case .null = value, path.parents == 0, let variable = variables[first] { value = variable }
        }
        for segment in path.segments.dropFirst() { value = value.member(segment) }
        return value
    }
}
