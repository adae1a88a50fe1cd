import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An XML document read into a tree for XPath matchers to walk.
///
/// It is read with the event parser, `XMLParser`: on Linux, `XMLDocument` crashes the process
/// on malformed XML and on an invalid XPath expression, and a request body must never do that.
indirect enum XMLTree {
    case element(name: String, attributes: [String: String], children: [XMLTree])
    case text(String)

    /// The document in `data`; `nil` when it is not well-formed XML.
    init?(parsing data: Data) {
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse(), parser.parserError == nil, let root = reader.root else { return nil }
        self = root
    }

    /// The text of the node and everything below it, as XPath's `string()` gives it.
    var stringValue: String {
        switch self {
        case .text(let text): text
        case .element(_, _, let children): children.map(\.stringValue).joined()
        }
    }

    /// Builds the tree from the parser's events, one open element per level.
    private final class Reader: NSObject, XMLParserDelegate {
        private var open: [(name: String, attributes: [String: String], children: [XMLTree])] = []
        var root: XMLTree?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            open.append((elementName, attributes, []))
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard let closed = open.popLast() else { return }
            add(.element(name: closed.name, attributes: closed.attributes, children: closed.children))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !open.isEmpty else { return }
            add(.text(string))
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            guard !open.isEmpty else { return }
            add(.text(String(decoding: block, as: UTF8.self)))
        }

        private func add(_ node: XMLTree) {
            if open.isEmpty {
                root = node
            } else if case .text(let more) = node, case .text(let text)? = open[open.count - 1].children.last {
                // The parser hands one text over in pieces around an entity (`a &amp; b`); XPath's
                // `text()` is the whole of it, as in a DOM.
                open[open.count - 1].children[open[open.count - 1].children.count - 1] = .text(text + more)
            } else {
                open[open.count - 1].children.append(node)
            }
        }
    }
}
