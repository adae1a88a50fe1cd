/// How a parameter's value is written, as OpenAPI's `style` and `explode` say: the items of an
/// array, and a single value without the prefix `label` and `matrix` put before it.
enum ParameterStyle {
    /// Whether Decoy reads `style` for a parameter in `location`; objects (and `deepObject`) are not read.
    static func reads(_ style: String, in location: OpenAPIOperation.Parameter.Location) -> Bool {
        switch location {
        case .query: ["form", "spaceDelimited", "pipeDelimited"].contains(style)
        case .path: ["simple", "label", "matrix"].contains(style)
        case .header: style == "simple"
        case .cookie: style == "form"
        }
    }

    /// The items of an array parameter from the values the request gives it: `ids=1&ids=2`
    /// (form, exploded), `ids=1,2` (form), `ids=1|2` (pipeDelimited), `.1.2` (label, exploded),
    /// `;ids=1;ids=2` (matrix, exploded).
    static func items(of values: [String], _ parameter: OpenAPIOperation.Parameter) -> [String] {
        switch parameter.style {
        case "label":
            let text = values.joined(separator: ",")
            guard text.hasPrefix(".") else { return [text] }
            return text.dropFirst().split(separator: parameter.explode ? "." : ",", omittingEmptySubsequences: false)
                .map(String.init)
        case "matrix":
            let text = values.joined(separator: ",")
            let pairs = text.split(separator: ";").map { $0.split(separator: "=", maxSplits: 1) }
            let items = pairs.map { $0.count == 2 ? String($0[1]) : "" }
            return parameter.explode ? items : items.flatMap { $0.split(separator: ",").map(String.init) }
        default:
            let separator: Character =
                switch parameter.style {
                case "spaceDelimited": " "
                case "pipeDelimited": "|"
                default: ","
                }
            // An exploded form repeats the parameter; the other styles put the items in one value.
            if parameter.explode, parameter.style == "form" { return values }
            return values.flatMap { $0.split(separator: separator, omittingEmptySubsequences: false).map(String.init) }
        }
    }

    /// A single value without the prefix its style puts before it: `.7` (label), `;id=7` (matrix).
    static func scalar(of value: String, _ parameter: OpenAPIOperation.Parameter) -> String {
        switch parameter.style {
        case "label" where value.hasPrefix("."): String(value.dropFirst())
        case "matrix" where value.hasPrefix(";"):
            value.split(separator: "=", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        default: value
        }
    }
}
