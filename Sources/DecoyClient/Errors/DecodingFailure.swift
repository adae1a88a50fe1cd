public import Foundation

/// A response body that did not decode, with the bytes and where decoding stopped.
public struct DecodingFailure: Sendable {
    /// The decoder's error (usually a `DecodingError`).
    public let underlying: any Error
    /// The body that failed to decode.
    public let body: Data

    /// Creates a failure from a decoding error and the bytes it was decoding.
    public init(_ underlying: any Error, body: Data) {
        self.underlying = underlying
        self.body = body
    }

    /// The coding path of the failure, such as `["data", "people", "0", "age"]`.
    public var codingPath: [String] {
        guard let error = underlying as? DecodingError else { return [] }
        let context: DecodingError.Context? =
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): context
            case .keyNotFound(let key, let context):
                DecodingError.Context(codingPath: context.codingPath + [key], debugDescription: "")
            @unknown default: nil
            }
        return context?.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } ?? []
    }

    var codingPathDescription: String {
        codingPath.isEmpty ? "the top level" : codingPath.joined(separator: ".")
    }
}
