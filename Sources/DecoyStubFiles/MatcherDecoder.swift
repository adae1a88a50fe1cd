import Decoy
import Yams

/// Reads WireMock's matcher objects, such as `{"equalTo": "2"}` or `{"matchesJsonPath": "$.id"}`.
enum MatcherDecoder {
    /// The matchers, WireMock's names.
    static let names = [
        "equalTo", "contains", "doesNotContain", "matches", "doesNotMatch", "absent", "equalToJson", "matchesJsonPath",
        "matchesXPath", "and", "or", "not",
    ]
    /// The options some matchers take, and which.
    private static let options = [
        "caseInsensitive": "equalTo", "ignoreArrayOrder": "equalToJson", "ignoreExtraElements": "equalToJson",
    ]

    /// The matcher `node` describes, or `nil` after logging why there is none.
    static func decode(_ node: FileNode) -> ValueMatcher? {
        guard let object = node.object(known: nil, "a matcher object such as {\"equalTo\": \"text\"}") else {
            return nil
        }
        return decode(object.members, in: node)
    }

    /// The matcher `members` describe, one matcher name and its options.
    private static func decode(_ members: [(key: String, value: FileNode)], in node: FileNode) -> ValueMatcher? {
        var operators = members.filter { options[$0.key] == nil }
        // WireMock reads one matcher and passes over other names beside it: said, not refused.
        // It takes a JSON or XML matcher first, then the first other matcher written.
        if operators.count > 1, let chosen = Self.chosen(among: operators.map(\.key)) {
            for (stray, strayNode) in operators where stray != chosen {
                let what = names.contains(stray) ? "beside \(chosen) is" : "is not a matcher;"
                strayNode.warning("\(stray) \(what) ignored, as WireMock ignores it")
            }
            operators.removeAll { $0.key != chosen }
        }
        guard let (name, value) = operators.first else {
            node.error("expected a matcher: one of \(names.joined(separator: ", "))")
            return nil
        }
        guard operators.count == 1 else {
            node.error("give one matcher per object; found \(operators.map(\.key).joined(separator: " and "))")
            return nil
        }
        for (option, value) in members where options[option].map({ $0 != name }) ?? false {
            value.error("\(option) applies only to \(options[option]!)")
        }
        func flag(_ option: String) -> Bool { members.first { $0.key == option }?.value.flag() ?? false }
        switch name {
        case "equalTo": return value.text().map { .equalTo($0, caseInsensitive: flag("caseInsensitive")) }
        case "contains": return value.text().map { .contains($0) }
        case "doesNotContain": return value.text().map { .doesNotContain($0) }
        case "matches": return value.text("a regular expression").map { .matches($0) }
        case "doesNotMatch": return value.text("a regular expression").map { .doesNotMatch($0) }
        case "absent": return value.flag().map { $0 ? .absent : .present }
        case "equalToJson":
            return jsonDocument(value).map {
                .equalToJSON(
                    $0, ignoreArrayOrder: flag("ignoreArrayOrder"), ignoreExtraElements: flag("ignoreExtraElements"))
            }
        case "matchesJsonPath": return pathMatcher(value, "a JSON path", ValueMatcher.matchesJSONPath)
        case "matchesXPath": return pathMatcher(value, "an XPath", ValueMatcher.matchesXPath)
        case "and", "or":
            guard let elements = value.list("a list of matchers") else { return nil }
            let matchers = elements.map(decode)
            guard !matchers.contains(where: { $0 == nil }) else { return nil }
            guard !elements.isEmpty else { return value.expected("at least one matcher") }
            return name == "and" ? .and(matchers.compactMap { $0 }) : .or(matchers.compactMap { $0 })
        case "not": return decode(value).map { .not($0) }
        default:
            let suggestion =
                FieldNames.closest(to: name, among: names).map { "; did you mean \"\($0)\"?" }
                ?? "; expected one of \(names.joined(separator: ", "))"
            value.error("unknown matcher \"\(name)\"\(suggestion)")
            return nil
        }
    }

    /// The matcher WireMock reads of several given in one object; `nil` when none is one.
    private static func chosen(among keys: [String]) -> String? {
        ["equalToJson", "matchesJsonPath", "matchesXPath"].first(where: keys.contains)
            ?? keys.first(where: names.contains)
    }

    /// `equalToJson` takes the document inline or as JSON text in a string.
    private static func jsonDocument(_ node: FileNode) -> String? {
        if case .scalar = node.node { return node.text("a JSON document") }
        return JSONText.of(node.node)
    }

    /// `matchesJsonPath` and `matchesXPath` take a path, or an object with the `expression` and a
    /// matcher for what it selects.
    private static func pathMatcher(_ node: FileNode, _ what: String, _ make: (String, ValueMatcher) -> ValueMatcher)
        -> ValueMatcher?
    {
        if case .scalar = node.node { return node.text(what).map { make($0, .present) } }
        guard let object = node.object(known: nil, "\(what) or an object with \"expression\" and a matcher") else {
            return nil
        }
        guard let expression = object["expression"] else {
            node.error("expected \"expression\", the path, next to the matcher")
            return nil
        }
        if let namespaces = object["xPathNamespaces"] {
            namespaces.error("xPathNamespaces is not supported; match on names as the document writes them")
            return nil
        }
        guard let path = expression.text(what),
            let matcher = decode(object.members.filter { $0.key != "expression" }, in: node)
        else { return nil }
        return make(path, matcher)
    }
}
