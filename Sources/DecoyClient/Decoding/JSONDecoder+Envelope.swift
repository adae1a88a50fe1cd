import Foundation

extension JSONDecoder {
    /// Decodes the value that `envelope` locates, keeping the coding path of a failure relative
    /// to the top of the document.
    func decode<Value: Decodable>(_ type: Value.Type, from data: Data, envelope: Envelope) throws -> Value {
        if envelope == .whole || envelope == .rootKeys([]) { return try decode(type, from: data) }
        // A task local carries the envelope into `init(from:)`, so the shared decoder needs no copy.
        return try EnvelopeLocal.$current.withValue(envelope) {
            try decode(Enveloped<Value>.self, from: data).value
        }
    }
}

private enum EnvelopeLocal {
    @TaskLocal static var current = Envelope.whole
}

/// Any key an envelope names.
private struct EnvelopeKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Walks nested keyed containers down to the value; the envelope arrives through a task local.
private struct Enveloped<Value: Decodable>: Decodable {
    let value: Value

    init(from decoder: any Decoder) throws {
        var container = try decoder.container(keyedBy: EnvelopeKey.self)
        let keys: [EnvelopeKey] =
            switch EnvelopeLocal.current {
            case .whole: []
            case .rootKeys(let names): names.map { EnvelopeKey(stringValue: $0) }
            case .singleKey(let otherwise): [try Self.onlyKey(of: container, otherwise: otherwise)]
            }
        for key in keys.dropLast() {
            container = try container.nestedContainer(keyedBy: EnvelopeKey.self, forKey: key)
        }
        guard let last = keys.last else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no envelope to open"))
        }
        // `container.decode` (not `Value(from:)`) keeps the decoder's date and data strategies.
        value = try container.decode(Value.self, forKey: last)
    }

    private static func onlyKey(of container: KeyedDecodingContainer<EnvelopeKey>, otherwise: String?) throws
        -> EnvelopeKey
    {
        if container.allKeys.count == 1 { return container.allKeys[0] }
        if let otherwise { return EnvelopeKey(stringValue: otherwise) }
        let names = container.allKeys.map(\.stringValue).sorted().joined(separator: ", ")
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: [],
                debugDescription: "expected an envelope with a single key, found \(container.allKeys.count): \(names)"
            ))
    }
}
