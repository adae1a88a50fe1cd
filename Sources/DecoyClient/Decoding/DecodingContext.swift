public import Foundation

/// What a decoding step gets besides the body: the decoder and how the value is laid out.
public struct DecodingContext: Sendable {
    /// The JSON decoder: the resource's own, or the client's.
    public let decoder: JSONDecoder
    /// Where the value sits in the document.
    public let envelope: Envelope
    /// What bad elements of a top-level array do.
    public let arrays: ArrayDecoding

    /// Creates a context; ``APIClient`` makes one per response from its configuration and the resource.
    public init(decoder: JSONDecoder, envelope: Envelope = .whole, arrays: ArrayDecoding = .strict) {
        self.decoder = decoder
        self.envelope = envelope
        self.arrays = arrays
    }

    /// Decodes `data` the way the client does by default: `Data` as is, `String` as UTF-8 text,
    /// an empty body as `nil` for an optional type, anything else as JSON through the envelope.
    ///
    /// A custom decoding step may call this for the part it does not handle itself.
    public func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        if Value.self == Data.self { return data as! Value }
        if Value.self == String.self { return String(decoding: data, as: UTF8.self) as! Value }
        if data.isEmpty, let optional = Value.self as? any ExpressibleByNilLiteral.Type {
            return optional.init(nilLiteral: ()) as! Value
        }
        if arrays == .lossy, let array = Value.self as? any LossilyDecodable.Type {
            return try decodeLossily(array, from: data) as! Value
        }
        return try decoder.decode(Value.self, from: data, envelope: envelope)
    }

    private func decodeLossily<Array: LossilyDecodable>(_ type: Array.Type, from data: Data) throws -> Array {
        Array(lossy: try decoder.decode(Array.Lossy.self, from: data, envelope: envelope))
    }
}
