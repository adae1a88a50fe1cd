/// An array that decodes the elements it can and drops the others.
///
/// ```swift
/// struct Catalog: Decodable {
///     @LossyArray var products: [Product]
/// }
/// ```
@propertyWrapper
public struct LossyArray<Element> {
    /// The elements that decoded, in order.
    public var wrappedValue: [Element]

    /// Wraps `elements`.
    public init(wrappedValue elements: [Element]) {
        self.wrappedValue = elements
    }
}

extension LossyArray: Decodable where Element: Decodable {
    /// Decodes each element on its own; one that fails is skipped.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var elements: [Element] = []
        while !container.isAtEnd {
            if let element = try? container.decode(Element.self) {
                elements.append(element)
            } else {
                // A failed decode does not advance the container; consuming anything moves past the element.
                _ = try container.decode(Skipped.self)
            }
        }
        wrappedValue = elements
    }

    private struct Skipped: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}

extension LossyArray: Encodable where Element: Encodable {
    /// Encodes as a plain array.
    public func encode(to encoder: any Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }
}

extension LossyArray: Sendable where Element: Sendable {}
extension LossyArray: Equatable where Element: Equatable {}
extension LossyArray: Hashable where Element: Hashable {}

/// An array type that a lossy decoding (`lossyArrays`) can decode through ``LossyArray``.
protocol LossilyDecodable {
    associatedtype Lossy: Decodable
    init(lossy: Lossy)
}

extension Array: LossilyDecodable where Element: Decodable {
    init(lossy: LossyArray<Element>) {
        self = lossy.wrappedValue
    }
}
