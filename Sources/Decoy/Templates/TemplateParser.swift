import Foundation

/// Reads a template in WireMock's Handlebars dialect into ``TemplateNode``s, once.
///
/// Everything that can be checked without a request is checked here: tags are closed and
/// matched, helpers exist and get the arguments they take, paths at the top start at `request`
/// and name one of its parts. Whitespace is kept as written except around `~`, as Handlebars-Java
/// does for WireMock (it strips no standalone lines).
struct TemplateParser {
    /// A tag, found by the first pass.
    private struct Tag {
        enum Kind {
            case open, close, `else`
            case output(escaped: Bool)
        }
        let kind: Kind
        let content: String
        /// Where the content starts in the template, for errors.
        let offset: Int
    }

    private enum Piece {
        case text(String)
        case tag(Tag)
    }

    /// What ended a run of nodes.
    private enum End {
        case close(name: String, offset: Int)
        case `else`(content: String, offset: Int)
        case end
    }

    private let source: [Character]
    private var pieces: [Piece] = []
    private var position = 0
    /// How many enclosing blocks changed the context (`#each`, `#with`): inside them, a path may name anything.
    private var contextDepth = 0
    private var blockParameters: [Set<String>] = []
    /// The variables set so far (`assign`, `parseJson`): after them, a path may start with their names.
    fileprivate var variables: Set<String> = []
    /// The name the request goes by: `request` in a response, `originalRequest` in a webhook.
    private let requestName: String

    private init(_ text: String, requestName: String) {
        source = Array(text)
        self.requestName = requestName
    }

    /// The nodes of `text`, whose paths at the top start at `requestName`.
    static func parse(_ text: String, requestName: String) throws(DecoyError) -> [TemplateNode] {
        var parser = TemplateParser(text, requestName: requestName)
        try parser.split()
        let (nodes, end) = try parser.nodes()
        switch end {
        case .end: return nodes
        case .close(let name, let offset): throw parser.error(at: offset, helper: name, "{{/\(name)}} closes no block")
        case .else(_, let offset): throw parser.error(at: offset, "{{else}} is outside any block")
        }
    }

    // MARK: First pass: text and tags

    private mutating func split() throws(DecoyError) {
        var text = ""
        var stripNext = false
        var index = 0
        func flush(stripTrailing: Bool) {
            var kept = text
            if stripNext { kept = String(kept.drop(while: \.isWhitespace)) }
            if stripTrailing { while kept.last?.isWhitespace == true { kept.removeLast() } }
            if !kept.isEmpty { pieces.append(.text(kept)) }
            text = ""
            stripNext = false
        }
        while index < source.count {
            if source[index] == "\\", starts("{{", at: index + 1) {
                // `\{{` writes `{{` as text, as in Handlebars.
                text += "{{"
                index += 3
                continue
            }
            guard starts("{{", at: index) else {
                text.append(source[index])
                index += 1
                continue
            }
            let open = index
            var start = index + 2
            let triple = starts("{", at: start)
            if triple { start += 1 }
            let stripBefore = starts("~", at: start)
            if stripBefore { start += 1 }
            if !triple, starts("!", at: start) {
                let long = starts("!--", at: start)
                guard let close = find(long ? "--}}" : "}}", from: start) else {
                    throw error(at: open, "this comment is never closed with \(long ? "--}}" : "}}")")
                }
                let stripAfter = source[close - 1] == "~"
                flush(stripTrailing: stripBefore)
                stripNext = stripAfter
                index = close + (long ? 4 : 2)
                continue
            }
            let closer = triple ? "}}}" : "}}"
            guard let close = find(closer, from: start) else {
                throw error(at: open, "this tag is never closed with \(closer)")
            }
            var end = close
            let stripAfter = end > start && source[end - 1] == "~"
            if stripAfter { end -= 1 }
            var content = String(source[start..<end])
            var contentOffset = start
            flush(stripTrailing: stripBefore)
            stripNext = stripAfter
            index = close + closer.count
            let kind: Tag.Kind
            if triple {
                kind = .output(escaped: false)
            } else if let sigil = content.first, "#/^&>".contains(sigil) {
                content.removeFirst()
                contentOffset += 1
                switch sigil {
                case "#": kind = .open
                case "/": kind = .close
                case "^": kind = .else
                case "&": kind = .output(escaped: false)
                default: throw error(at: open, "partials ({{> name}}) are not supported: a stub's template is one file")
                }
            } else if content.trimmingPrefix(while: \.isWhitespace).hasPrefix("else"),
                content.trimmingPrefix(while: \.isWhitespace).dropFirst(4).first.map({ $0.isWhitespace }) ?? true
            {
                let leading = content.prefix(while: \.isWhitespace).count
                content = String(content.dropFirst(leading + 4))
                contentOffset += leading + 4
                kind = .else
            } else {
                kind = .output(escaped: true)
            }
            pieces.append(.tag(Tag(kind: kind, content: content, offset: contentOffset)))
        }
        flush(stripTrailing: false)
    }

    private func starts(_ text: String, at index: Int) -> Bool {
        var position = index
        for character in text {
            guard position < source.count, source[position] == character else { return false }
            position += 1
        }
        return true
    }

    private func find(_ text: String, from index: Int) -> Int? {
        var position = index
        var quote: Character?
        while position < source.count {
            let character = source[position]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if starts(text, at: position) {
                return position
            }
            position += 1
        }
        return nil
    }

    // MARK: Second pass: the tree

    private mutating func nodes() throws(DecoyError) -> ([TemplateNode], End) {
        var nodes: [TemplateNode] = []
        while position < pieces.count {
            let piece = pieces[position]
            position += 1
            switch piece {
            case .text(let text):
                nodes.append(.text(text))
            case .tag(let tag):
                switch tag.kind {
                case .output(let escaped):
                    var reader = try TagReader(tag.content, offset: tag.offset, parser: self)
                    let expression = try reader.expression(self)
                    try reader.finish(self)
                    variables.formUnion(reader.variables)
                    nodes.append(.output(expression, escaped: escaped))
                case .open:
                    nodes.append(.block(try block(tag.content, at: tag.offset)))
                case .close:
                    return (nodes, .close(name: tag.content.trimmingCharacters(in: .whitespaces), offset: tag.offset))
                case .else:
                    return (nodes, .else(content: tag.content, offset: tag.offset))
                }
            }
        }
        return (nodes, .end)
    }

    /// A block from the content of its opening tag to its closing one; a chained `{{else if …}}` shares the close.
    private mutating func block(_ content: String, at offset: Int) throws(DecoyError) -> TemplateBlock {
        var reader = try TagReader(content, offset: offset, parser: self)
        guard case .word(let name, _) = reader.peek else {
            throw error(at: offset, "a block starts with the name of a helper, as in {{#if …}}")
        }
        reader.advance()
        let kind: TemplateBlock.Kind
        switch name {
        case "if": kind = .if
        case "unless": kind = .unless
        case "each": kind = .each
        case "with": kind = .with
        case "assign": kind = .variable(parsesJSON: false)
        case "parseJson": kind = .variable(parsesJSON: true)
        default:
            guard let helper = TemplateHelper(rawValue: name) else { throw unknownHelper(name, at: offset) }
            guard helper != .jsonPath, helper != .xPath else {
                throw error(at: offset, helper: name, "\(name) gives a value, not a block: write {{\(name) …}}")
            }
            kind = .value(helper)
        }
        let (parameters, hash) = try reader.arguments(self)
        let names = try reader.blockParameters(self)
        try reader.finish(self)
        variables.formUnion(reader.variables)
        switch kind {
        case .if, .unless, .each, .with:
            guard parameters.count == 1, hash.isEmpty else {
                throw error(at: offset, helper: name, "#\(name) takes one value")
            }
        case .variable:
            guard parameters.count == 1, hash.isEmpty, TemplateHelper.isName(parameters[0]),
                case .literal(let variable) = parameters[0]
            else {
                throw error(
                    at: offset, helper: name,
                    "#\(name) takes the variable's name as quoted text, as in {{#\(name) 'result'}}")
            }
            variables.insert(variable.text)
        case .value(let helper):
            try helper.check(parameters, hash, at: offset, self)
        }
        let changesContext =
            switch kind {
            case .each, .with: true;
            default: false
            }
        if changesContext { contextDepth += 1 }
        blockParameters.append(Set(names))
        let (body, end) = try nodes()
        var inverse: [TemplateNode] = []
        var close = end
        if case .else(let elseContent, let elseOffset) = end {
            if changesContext { contextDepth -= 1 }
            blockParameters.removeLast()
            if elseContent.allSatisfy(\.isWhitespace) {
                let (nodes, afterElse) = try nodes()
                inverse = nodes
                close = afterElse
            } else {
                let chained = try block(elseContent, at: elseOffset + elseContent.prefix(while: \.isWhitespace).count)
                return TemplateBlock(
                    kind: kind, parameters: parameters, hash: hash, blockParameters: names, body: body,
                    inverse: [.block(chained)])
            }
        } else {
            if changesContext { contextDepth -= 1 }
            blockParameters.removeLast()
        }
        if case .variable(parsesJSON: true) = kind, inverse.isEmpty {
            let texts = body.compactMap { node -> String? in if case .text(let text) = node { text } else { nil } }
            if texts.count == body.count, JSONValue(parsing: texts.joined()) == nil {
                throw error(at: offset, helper: name, "the body of #parseJson is not JSON")
            }
        }
        switch close {
        case .close(let closeName, let closeOffset):
            guard closeName == name else {
                throw error(
                    at: closeOffset, helper: name, "{{/\(closeName)}} closes {{#\(name)}}; expected {{/\(name)}}")
            }
        case .else(_, let elseOffset):
            throw error(at: elseOffset, helper: name, "{{#\(name)}} has a second {{else}}")
        case .end:
            throw error(at: offset, helper: name, "{{#\(name)}} is never closed with {{/\(name)}}")
        }
        return TemplateBlock(
            kind: kind, parameters: parameters, hash: hash, blockParameters: names, body: body, inverse: inverse)
    }

    // MARK: Checks on what a tag names

    /// The parts of the request a template may name.
    static let requestParts = ["url", "path", "pathSegments", "method", "query", "headers", "cookies", "body"]

    /// Checks what `path` names; gives the read of the request it stands for, when it names one
    /// at the top of the template.
    fileprivate func check(_ path: TemplatePath, at offset: Int) throws(DecoyError) -> RequestRead? {
        guard contextDepth == 0, !path.isData, path.parents == 0, let first = path.segments.first,
            !blockParameters.contains(where: { $0.contains(first) })
        else { return nil }
        guard first == requestName else {
            if variables.contains(first) { return nil }
            throw unknownHelper(first, at: offset)
        }
        if path.segments.count > 1, !Self.requestParts.contains(path.segments[1]) {
            throw error(
                at: offset,
                """
                \(requestName) has no part \"\(path.segments[1])\"; it has \
                \(Self.requestParts.joined(separator: ", "))
                """
            )
        }
        return RequestRead(path.segments.dropFirst())
    }

    fileprivate func unknownHelper(_ name: String, at offset: Int) -> DecoyError {
        error(
            at: offset, helper: name,
            """
            no helper or value is called \"\(name)\"; helpers: \
            \(TemplateHelper.allCases.map(\.rawValue).joined(separator: ", ")), if, unless, each, with; values \
            start at \(requestName) or a variable set before
            """
        )
    }

    func error(at offset: Int, helper: String? = nil, _ reason: String) -> DecoyError {
        var line = 1
        var column = 1
        for character in source.prefix(offset) {
            if character == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return DecoyError.invalidTemplate(line: line, column: column, helper: helper, reason: reason)
    }
}

/// Reads the words of one tag: a helper or a path, then arguments, `name=value` pairs and `as |…|`.
private struct TagReader {
    enum Token: Equatable {
        case word(String, offset: Int)
        case string(String, offset: Int)
        case open(offset: Int)
        case close(offset: Int)
        case equals(offset: Int)
        case pipe(offset: Int)
        case end(offset: Int)
    }

    private var tokens: [Token] = []
    private var index = 0
    /// The variables `parseJson value 'name'` in this tag sets.
    private(set) var variables: Set<String> = []

    init(_ content: String, offset: Int, parser: TemplateParser) throws(DecoyError) {
        let characters = Array(content)
        var position = 0
        while position < characters.count {
            let character = characters[position]
            let at = offset + position
            if character.isWhitespace {
                position += 1
            } else if character == "'" || character == "\"" {
                guard let close = characters[(position + 1)...].firstIndex(of: character) else {
                    throw parser.error(at: at, "this text is never closed with \(character)")
                }
                tokens.append(.string(String(characters[(position + 1)..<close]), offset: at))
                position = close + 1
            } else if "()=|".contains(character) {
                tokens.append(
                    character == "("
                        ? .open(offset: at)
                        : character == ")"
                            ? .close(offset: at) : character == "=" ? .equals(offset: at) : .pipe(offset: at))
                position += 1
            } else {
                var word = ""
                while position < characters.count {
                    let next = characters[position]
                    if next == "[" {
                        // A literal segment: anything up to `]`, kept with its brackets for the path reader.
                        guard let close = characters[position...].firstIndex(of: "]") else {
                            throw parser.error(at: offset + position, "this [ is never closed with ]")
                        }
                        word += String(characters[position...close])
                        position = close + 1
                        continue
                    }
                    if next.isWhitespace || "()=|'\"".contains(next) { break }
                    word.append(next)
                    position += 1
                }
                tokens.append(.word(word, offset: at))
            }
        }
        tokens.append(.end(offset: offset + characters.count))
    }

    var peek: Token { tokens[index] }
    mutating func advance() { index += 1 }

    private static func offset(of token: Token) -> Int {
        switch token {
        case .word(_, let offset), .string(_, let offset), .open(let offset), .close(let offset), .equals(let offset),
            .pipe(let offset), .end(let offset):
            offset
        }
    }

    /// A whole output tag's expression: a helper with its arguments, or one value.
    mutating func expression(_ parser: TemplateParser) throws(DecoyError) -> TemplateExpression {
        let start = Self.offset(of: peek)
        if case .word(let name, _) = peek, let helper = TemplateHelper(rawValue: name) {
            advance()
            return try call(helper, at: start, parser)
        }
        let value = try argument(parser)
        if case .end = peek { return value }
        if case .word(let name, _) = tokens[index - 1] { throw parser.unknownHelper(name, at: start) }
        throw parser.error(at: Self.offset(of: peek), "one value or a helper call per tag")
    }

    private mutating func call(_ helper: TemplateHelper, at offset: Int, _ parser: TemplateParser)
        throws(DecoyError) -> TemplateExpression
    {
        let (parameters, hash) = try arguments(parser)
        try helper.check(parameters, hash, at: offset, parser)
        switch helper {
        case .assign:
            throw parser.error(at: offset, helper: "assign", "assign is a block: {{#assign 'name'}}…{{/assign}}")
        case .parseJson where parameters.count == 2:
            guard case .literal(let name) = parameters[1] else { break }
            variables.insert(name.text)
            return .assignJSON(parameters[0], name: name.text)
        case .xPath:
            guard case .literal(.string(let text)) = parameters[1] else {
                throw parser.error(
                    at: offset, helper: "xPath",
                    "xPath takes its path as quoted text, as in {{xPath request.body '/order/id/text()'}}")
            }
            do {
                return .xPath(parameters[0], try XPath(parsing: text))
            } catch {
                throw parser.error(at: offset, helper: "xPath", "\(text) is not an XPath Decoy reads: \(error)")
            }
        default:
            break
        }
        if helper == .jsonPath {
            guard case .literal(.string(let text)) = parameters[1] else {
                throw parser.error(
                    at: offset, helper: "jsonPath",
                    "jsonPath takes its path as quoted text, as in {{jsonPath request.body '$.name'}}")
            }
            do {
                return .jsonPath(parameters[0], try JSONPath(parsing: text))
            } catch {
                throw parser.error(at: offset, helper: "jsonPath", "\(text) is not a JSON path: \(error)")
            }
        }
        return .call(helper, parameters, hash)
    }

    /// Positional arguments then `name=value` pairs, up to `as`, `)` or the end.
    mutating func arguments(_ parser: TemplateParser) throws(DecoyError) -> (
        [TemplateExpression], [String: TemplateExpression]
    ) {
        var parameters: [TemplateExpression] = []
        var hash: [String: TemplateExpression] = [:]
        while true {
            switch peek {
            case .end, .close, .pipe:
                return (parameters, hash)
            case .word("as", _) where tokens[index + 1] == .pipe(offset: Self.offset(of: tokens[index + 1])):
                return (parameters, hash)
            case .word(let name, let offset)
            where tokens[index + 1] == .equals(offset: Self.offset(of: tokens[index + 1])):
                index += 2
                guard hash[name] == nil else { throw parser.error(at: offset, "\(name)= is given twice") }
                hash[name] = try argument(parser)
            default:
                guard hash.isEmpty else {
                    throw parser.error(at: Self.offset(of: peek), "values come before name=value pairs")
                }
                parameters.append(try argument(parser))
            }
        }
    }

    /// One value: a literal, a path, or a helper call in parentheses.
    private mutating func argument(_ parser: TemplateParser) throws(DecoyError) -> TemplateExpression {
        let token = peek
        advance()
        switch token {
        case .string(let text, _):
            return .literal(.string(text))
        case .open(let offset):
            guard case .word(let name, _) = peek else {
                throw parser.error(at: offset, "( starts a helper call, as in (eq a b)")
            }
            guard let helper = TemplateHelper(rawValue: name) else {
                throw parser.unknownHelper(name, at: Self.offset(of: peek))
            }
            advance()
            let call = try call(helper, at: offset, parser)
            guard case .close = peek else { throw parser.error(at: Self.offset(of: peek), "( is never closed with )") }
            advance()
            return call
        case .word(let word, let offset):
            switch word {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null", "undefined": return .literal(.null)
            default: break
            }
            if let number = Double(word), word.first.map({ $0.isNumber || $0 == "-" }) == true {
                // Handlebars reads `1.5` as a Java double, and `math` keeps its scale.
                return .literal(word.contains(".") ? .decimal(number) : .number(number))
            }
            if let helper = TemplateHelper(rawValue: word) {
                // A helper named without parentheses where a value goes: Handlebars calls it with no arguments.
                return try call(helper, at: offset, parser)
            }
            let path = try Self.path(word, at: offset, parser)
            return try parser.check(path, at: offset).map(TemplateExpression.request) ?? .path(path)
        case .end(let offset), .close(let offset), .equals(let offset), .pipe(let offset):
            throw parser.error(at: offset, "a value is missing here")
        }
    }

    /// `as |name index|` after a block's arguments; empty when there is none.
    mutating func blockParameters(_ parser: TemplateParser) throws(DecoyError) -> [String] {
        guard case .word("as", let offset) = peek else { return [] }
        advance()
        guard case .pipe = peek else { throw parser.error(at: offset, "as is followed by |names|") }
        advance()
        var names: [String] = []
        while case .word(let name, _) = peek {
            names.append(name)
            advance()
        }
        guard case .pipe = peek, !names.isEmpty else {
            throw parser.error(at: offset, "as |names| needs at least one name and a closing |")
        }
        advance()
        return names
    }

    mutating func finish(_ parser: TemplateParser) throws(DecoyError) {
        guard case .end = peek else { throw parser.error(at: Self.offset(of: peek), "unexpected text in this tag") }
    }

    /// `a.b.[c]`, `this`, `../a`, `@index`.
    private static func path(_ word: String, at offset: Int, _ parser: TemplateParser) throws(DecoyError)
        -> TemplatePath
    {
        var path = TemplatePath()
        var rest = Substring(word)
        if rest.hasPrefix("@") {
            path.isData = true
            rest.removeFirst()
        }
        while rest.hasPrefix("../") {
            path.parents += 1
            rest.removeFirst(3)
        }
        while !rest.isEmpty {
            if rest.hasPrefix("[") {
                // The tokens keep a `[` only with its `]`.
                let close = rest.firstIndex(of: "]")!
                path.segments.append(String(rest[rest.index(after: rest.startIndex)..<close]))
                rest = rest[rest.index(after: close)...]
            } else {
                let end = rest.firstIndex { $0 == "." || $0 == "/" } ?? rest.endIndex
                let segment = String(rest[..<end])
                guard !segment.isEmpty else { throw parser.error(at: offset, "\(word) has an empty part") }
                if !(segment == "this" && path.segments.isEmpty) { path.segments.append(segment) }
                rest = rest[end...]
            }
            if rest.first == "." || rest.first == "/" {
                rest.removeFirst()
                if rest.isEmpty { throw parser.error(at: offset, "\(word) ends with a separator") }
            }
        }
        return path
    }
}
