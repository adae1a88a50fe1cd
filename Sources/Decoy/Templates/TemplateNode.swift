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
