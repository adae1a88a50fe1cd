import HTTPTypes

/// A parsed template as a tree: text, values to write, and blocks.
enum TemplateNode: Sendable {
    case text(String)
    /// A value written out; HTML-escaped unless written with three braces, as Handlebars does.
    case output(TemplateExpression, escaped: Bool)
    case block(TemplateBlock)
}

/// `{{#name …}}body{{else}}inverse{{/name}}`.
struct TemplateBlock: Sendable {
    enum Kind: Sendable {
        case `if`, unless, each, with
        /// `#assign 'name'` and `#parseJson 'name'`: the body, rendered (and parsed as JSON), becomes a variable.
        case variable(parsesJSON: Bool)
        /// A helper whose value chooses: the body when it is truthy, the inverse otherwise (`#eq`, `#contains`, …).
        case value(TemplateHelper)
    }

    let kind: Kind
    let parameters: [TemplateExpression]
    let hash: [String: TemplateExpression]
    /// The names of `as |item index|`.
    let blockParameters: [String]
    let body: [TemplateNode]
    let inverse: [TemplateNode]
}

/// Something that gives a value: a path into the context, a literal, or a helper's result.
indirect enum TemplateExpression: Sendable {
    case path(TemplatePath)
    case literal(TemplateValue)
    case call(TemplateHelper, [TemplateExpression], [String: TemplateExpression])
    /// `jsonPath value '$…'`, its path compiled once.
    case jsonPath(TemplateExpression, JSONPath)
    /// `xPath value '/…'`, its path compiled once.
    case xPath(TemplateExpression, XPath)
    /// `parseJson value 'name'`: sets a variable and writes nothing.
    case assignJSON(TemplateExpression, name: String)
    /// A path that reads one part of the request at the top of the template, where no block
    /// parameter or context can stand in its way.
    case request(RequestRead)
}

/// What a template's path reads of the request, worked out when it is parsed: `request.method`,
/// `request.url`, `request.path.[1]`, `request.query.page` and `request.headers.X-Id`, a template's
/// usual reads, each read straight from the request when rendered.
// Pays: scripts/benchmarks instructions, "templated answer", against looking the path's names up per request.
enum RequestRead: Sendable, Equatable {
    case method
    case url
    /// The path segment at an index, empty segments left out.
    case pathSegment(Int)
    case query(String)
    case header(HTTPField.Name)

    /// The read `names` (what follows the request's own name) stand for; `nil` for any other,
    /// which is looked up as a path.
    init?(_ names: ArraySlice<String>) {
        guard let part = names.first else { return nil }
        let member = names.dropFirst().first
        switch (part, names.count) {
        case ("method", 1): self = .method
        case ("url", 1): self = .url
        case ("path", 2), ("pathSegments", 2):
            guard let index = member.flatMap({ Int($0) }), index >= 0 else { return nil }
            self = .pathSegment(index)
        case ("query", 2): self = .query(member!)
        case ("headers", 2):
            guard let name = member.flatMap({ HTTPField.Name($0) }) else { return nil }
            self = .header(name)
        default: return nil
        }
    }
}

/// `request.path.[1]`, `this`, `../name`, `@index`.
struct TemplatePath: Sendable {
    /// How many `../` lead it.
    var parents = 0
    /// `@index`, `@key`, `@first`, `@last`: data of the enclosing `#each`.
    var isData = false
    /// The names to look up in turn; empty for `this`.
    var segments: [String] = []
}
