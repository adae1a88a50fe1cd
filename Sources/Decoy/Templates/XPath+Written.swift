extension XPath.Item {
    /// The item as WireMock's `xPath` helper writes it: a text node or an attribute as its text,
    /// an element as indented XML with a line break after it.
    var written: String {
        switch self {
        case .attribute(let value): value
        case .node(.text(let text)): text
        case .node(let element): element.xml(indent: "") + "\n"
        }
    }
}

extension XMLTree {
    /// The node as XML: an element holding only text on one line, others one child a line,
    /// indented by two; attributes sorted by name.
    fileprivate func xml(indent: String) -> String {
        switch self {
        case .text(let text):
            return indent + Self.escaped(text, quotes: false)
        case .element(let name, let attributes, let children):
            let open =
                "<" + name
                + attributes.sorted { $0.key < $1.key }.map { " \($0.key)=\"\(Self.escaped($0.value, quotes: true))\"" }
                .joined()
            if children.isEmpty { return indent + open + "/>" }
            if children.count == 1, case .text(let text) = children[0] {
                return indent + open + ">" + Self.escaped(text, quotes: false) + "</\(name)>"
            }
            let inner = children.filter {
                if case .text(let text) = $0 { !text.allSatisfy(\.isWhitespace) } else { true }
            }
            return indent + open + ">\n" + inner.map { $0.xml(indent: indent + "  ") + "\n" }.joined() + indent
                + "</\(name)>"
        }
    }

    private static func escaped(_ text: String, quotes: Bool) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
