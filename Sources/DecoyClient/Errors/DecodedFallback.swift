/// A response that did not decode as the expected type but did as the resource's fallback type.
public struct DecodedFallback: Sendable {
    /// The fallback value.
    public let value: any Sendable
    /// Why the expected type did not decode.
    public let failure: DecodingFailure

    /// Creates the outcome of a fallback decoding.
    public init(value: any Sendable, failure: DecodingFailure) {
        self.value = value
        self.failure = failure
    }

    /// The fallback value as `type`, when it is one.
    public func value<Fallback>(as type: Fallback.Type) -> Fallback? {
        value as? Fallback
    }
}
