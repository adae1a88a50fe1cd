import Decoy
import DecoyStubFiles
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

    /// WireMock's error shape: a list of errors, each with a code, a title and, where known, the
    /// field it is about. WireMock's Java client reads `code` to choose the exception it throws.
    /// `code` overrides the one the status implies, for WireMock's own codes such as 30, not recording.
    static func error(_ status: HTTPResponse.Status, _ title: String, code: Int? = nil) -> StubResponse {
        encoded(
            Errors(errors: [.init(code: code ?? Errors.code(for: status), title: title, detail: nil, source: nil)]),
            status: status)
    }

    /// Every problem of a refused stub document or request pattern, each with its field as a JSON
    /// pointer: `422`, as WireMock answers a document it cannot use.
    static func invalid(_ error: DecoyError) -> StubResponse {
        let errors = error.stubFileErrors.map { diagnostic in
            Errors.Entry(
                code: Errors.invalidInput, title: diagnostic.message, detail: diagnostic.description,
                source: diagnostic.field.isEmpty ? nil : .init(pointer: pointer(to: diagnostic.field))
            )
        }
        return encoded(Errors(errors: errors), status: .unprocessableContent)
    }

    /// The JSON pointer to a field path: `mappings[1].response.status` is `/mappings/1/response/status`.
    private static func pointer(to field: String) -> String {
        "/"
            + field.replacingOccurrences(of: "]", with: "").replacingOccurrences(of: "[", with: ".").split(
                separator: "."
            ).joined(separator: "/")
    }

    private struct Errors: Encodable {
        struct Entry: Encodable {
            struct Source: Encodable { let pointer: String }
            let code: Int
            let title: String
            let detail: String?
            let source: Source?
        }
        let errors: [Entry]

        /// WireMock's code for input it refuses; its Java client throws `InvalidRequestException` for it.
        static let invalidInput = 10

        /// WireMock has codes only for invalid input and recording; other errors carry their status.
        static func code(for status: HTTPResponse.Status) -> Int {
            status == .badRequest || status == .unprocessableContent ? invalidInput : status.code
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
