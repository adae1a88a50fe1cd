import Foundation

extension JSONDecoder {
    /// Decodes the value found under `rootKeys` (the whole document when empty), keeping the
    /// coding path of a failure relative to the top of the document.
    public func decode<Value: Decodable>(_ type: Value.Type, from data: Data, rootKeys: [String]) throws -> Value {
        guard !rootKeys.isEmpty else { return try decode(type, from: data) }
        // A task local carries the keys into `init(from:)`, so the shared decoder needs no copy.
        return try RootKeys.$current.withValue(rootKeys) {
            try decode(RootKeyed<Value>.self, from: data).value
        }
    }
}

private enum RootKeys {
    @TaskLocal static var current: [String] = []
}

/// Walks nested keyed containers down to the value; the keys arrive through a task local.
private struct RootKeyed<Value: Decodable>: Decodable {
    let value: Value

    init(from decoder: any Decoder) throws {
        let keys = RootKeys.current.map { Key(stringValue: $0) }
        var container = try decoder.container(keyedBy: Key.self)
        for key in keys.dropLast() {
            container = try container.nestedContainer(keyedBy: Key.self, forKey: key)
        }
        value = try container.decode(Value.self, forKey: keys[keys.count - 1])
    }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
