import Decoy
import Foundation
import HTTPTypes

extension OpenAPIOperation {
    /// A request the operation's parameters and body allow, values made from their schemas: what
    /// a templated stub is rendered with when it is checked against the document.
    func sampleRequest(_ examples: SchemaExample) -> StubRequest {
        var path = self.path
        var query: [String] = []
        var headers = HTTPFields()
        var cookies: [String] = []
        for parameter in parameters where parameter.required || parameter.location == .path {
            let value = parameter.schema.flatMap { examples.value(forSchemaAt: $0) } ?? .string("1")
            let items: [String] =
                if case .array(let items) = value { items.map(Self.text) } else { [Self.text(value)] }
            func encoded(_ text: String) -> String {
                text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~")))
                    ?? text
            }
            switch parameter.location {
            case .path:
                let text: String =
                    switch parameter.style {
                    case "label": "." + items.map(encoded).joined(separator: parameter.explode ? "." : ",")
                    case "matrix": ";\(parameter.name)=" + items.map(encoded).joined(separator: ",")
                    default: items.map(encoded).joined(separator: ",")
                    }
                path = path.replacingOccurrences(of: "{\(parameter.name)}", with: text)
            case .query:
                if parameter.explode, parameter.style == "form" {
                    query += items.map { "\(encoded(parameter.name))=\(encoded($0))" }
                } else {
                    let separator = ["spaceDelimited": " ", "pipeDelimited": "|"][parameter.style] ?? ","
                    query.append("\(encoded(parameter.name))=\(encoded(items.joined(separator: separator)))")
                }
            case .header:
                if let name = HTTPField.Name(parameter.name) { headers[name] = items.joined(separator: ",") }
            case .cookie:
                cookies.append("\(parameter.name)=\(items.joined(separator: ","))")
            }
        }
        if !cookies.isEmpty { headers[.cookie] = cookies.joined(separator: "; ") }
        var body = Data()
        if let declared = self.body, let content = declared.content.first {
            let mediaType = content.mediaType.contains("*") ? "application/octet-stream" : content.mediaType
            headers[.contentType] = mediaType
            if let schema = content.schema, let value = examples.value(forSchemaAt: schema) {
                body = Data(compactJSON(value))
            } else {
                body = Data("x".utf8)
            }
        }
        let target = query.isEmpty ? path : "\(path)?\(query.joined(separator: "&"))"
        return StubRequest(method: method, target: target, headerFields: headers, body: body)
    }

    /// A parameter value as text: a string as it is, anything else as JSON.
    private static func text(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return String(decoding: compactJSON(value), as: UTF8.self)
    }
}
