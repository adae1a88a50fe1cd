import Foundation

/// What a decoding step gets besides the body: the decoder and how the value is laid out.
struct DecodingContext: Sendable {
    /// The JSON decoder: the resource's own, or the client's.
    let decoder: JSONDecoder
    /// Where the value sits in the document.
    var envelope = Envelope.whole
    /// Whether bad elements of a top-level array are dropped rather than failing the response.
    var lossyArrays = false

    /// Decodes `data` the way the client does by default: nothing for `Void`, `Data` as is,
    /// `String` as UTF-8 text, an empty body as `nil` for an optional type, any other `Decodable`
    /// as JSON through the envelope.
    ///
    /// `Value` is checked when a response arrives rather than constrained, so that one `send`
    /// takes every ``Request``; a type neither `Void` nor `Decodable` fails as a decoding failure
    /// that says to give its resource a decoding step.
    func decode<Value>(_ type: Value.Type, from data: Data) throws -> Value {
        if Value.self == Void.self { return () as! Value }
        guard let decodable = Value.self as? any Decodable.Type else {
            throw DecodingError.typeMismatch(
                Value.self,
                .init(
                    codingPath: [],
                    debugDescription:
                        "\(Value.self) is neither Decodable nor Void: give its resource a decoding step, decoded(by:)"))
        }
        return try decodeDecodable(decodable, from: data) as! Value
    }

    private func decodeDecodable<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        if Value.self == Data.self { return data as! Value }
        if Value.self == String.self { return String(decoding: data, as: UTF8.self) as! Value }
        if data.isEmpty, let optional = Value.self as? any ExpressibleByNilLiteral.Type {
            return optional.init(nilLiteral: ()) as! Value
        }
        if lossyArrays, let array = Value.self as? any LossilyDecodable.Type {
            return try decodeLossily(array, from: data) as! Value
        }
        return try decoder.decode(Value.self, from: data, envelope: envelope)
    }

    private func decodeLossily<Array: LossilyDecodable>(_ type: Array.Type, from data: Data) throws -> Array {
        Array(lossy: try decoder.decode(Array.Lossy.self, from: data, envelope: envelope))
    }
}
