import Foundation

extension Resource where Value: Decodable & Sendable {
    /// A copy that, when the body does not decode as `Value`, tries `type` and fails with
    /// ``APIError/fallback(_:_:)`` carrying that value; when neither decodes, the failure is
    /// `Value`'s ``APIError/decoding(_:)``.
    ///
    /// For an API that answers some requests in a second shape (a maintenance notice, a legacy
    /// record) that callers should see rather than a bare decoding failure.
    public func fallback<Fallback: Decodable & Sendable>(_ type: Fallback.Type) -> Resource {
        let primary = decode
        return with {
            $0.decode = { data, response, context in
                do {
                    return try primary?(data, response, context) ?? context.decode(Value.self, from: data)
                } catch {
                    guard let fallback = try? context.decode(Fallback.self, from: data) else { throw error }
                    throw APIError.fallback(fallback, DecodingFailure(error, body: data))
                }
            }
        }
    }
}
