import Decoy
import Foundation
import HTTPTypes

/// An admin API answer: JSON, or a JSON error naming the problem.
enum AdminReply {
    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> StubResponse {
        StubResponse(status: status, json: text)
    }

    static func encoded(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> StubResponse {
        json(String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self), status: status)
    }

    static let ok = json("{}")

    /// WireMock's error shape: a list of errors, each with a title and, where known, the field it is about.
    static func error(_ status: HTTPResponse.Status, _ title: String) -> StubResponse {
        encoded(Errors(errors: [.init(title: title, detail: nil, source: nil)]), status: status)
    }

    /// Every problem of a refused stub document or request pattern, each with its field as a JSON pointer.
    static func invalid(_ error: StubFolderError) -> StubResponse {
        let errors = error.errors.map { diagnostic in
            Errors.Entry(
                title: diagnostic.message, detail: diagnostic.description,
                source: diagnostic.field.isEmpty ? nil : .init(pointer: "/" + diagnostic.field.replacingOccurrences(of: ".", with: "/"))
            )
        }
        return encoded(Errors(errors: errors), status: .badRequest)
    }

    private struct Errors: Encodable {
        struct Entry: Encodable {
            struct Source: Encodable { let pointer: String }
            let title: String
            let detail: String?
            let source: Source?
        }
        let errors: [Entry]
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
