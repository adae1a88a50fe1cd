import Decoy

extension SchemaValidator {
    /// Parameter text as the JSON value its schema's type calls for: `7` is a number where an
    /// integer is wanted, and an array's items are split as the parameter's style writes them.
    func parameterValue(of values: [String], _ parameter: OpenAPIOperation.Parameter, schemaAt pointer: String)
        -> JSONValue
    {
        let types = self.types(ofSchemaAt: pointer)
        if types.contains("array") {
            return .array(
                ParameterStyle.items(of: values, parameter).map { parameterValue(of: $0, schemaAt: "\(pointer)/items") }
            )
        }
        return parameterValue(of: ParameterStyle.scalar(of: values[0], parameter), schemaAt: pointer)
    }

    private func parameterValue(of text: String, schemaAt pointer: String) -> JSONValue {
        let types = self.types(ofSchemaAt: pointer)
        if types.contains("integer") || types.contains("number"), let number = Double(text) { return .number(number) }
        if types.contains("boolean"), text == "true" || text == "false" { return .bool(text == "true") }
        return .string(text)
    }

    /// The types the schema at `pointer` names, references followed.
    func types(ofSchemaAt pointer: String) -> [String] {
        var pointer = pointer
        var seen: Set<String> = []
        while case .string(let reference)? = document.at(pointer)?["$ref"], seen.insert(reference).inserted {
            pointer = reference
        }
        return switch document.at(pointer)?["type"] {
        case .string(let type)?: [type]
        case .array(let types)?: types.compactMap { if case .string(let type) = $0 { type } else { nil } }
        default: []
        }
    }
}
