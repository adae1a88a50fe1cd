/// A type per endpoint: the request it sends, the type its body decodes to, and the steps that
/// turn that into what the caller gets.
///
/// ```swift
/// struct CurrentUser: Request {
///     var resource: Resource<UserRecord> { .get("/me") }
///     func finalize(raw: UserRecord) throws -> User { User(record: raw) }
/// }
/// let user = try await client.send(CurrentUser())
/// ```
///
/// When the body decodes straight to what the caller wants, leave out `Final` and
/// `finalize(raw:)`: both default to the raw value.
public protocol Request: Sendable {
    /// What the response body decodes to: any `Decodable` type, or `Void` to ignore the body.
    associatedtype Raw
    /// What the caller gets.
    associatedtype Final = Raw

    /// The endpoint, with everything a ``Resource`` can say: query, headers, body, envelope,
    /// decoding, cache policy and per-request overrides.
    var resource: Resource<Raw> { get }

    /// Turns the decoded body into the caller's value; an error it throws fails the request with
    /// ``APIError/decoding(_:)``.
    func finalize(raw: Raw) throws -> Final

    /// Runs on the finalized value before the caller gets it, such as to update a local store;
    /// what it returns is what the caller gets.
    func postProcess(result: Final) async -> Final
}

extension Request where Final == Raw {
    /// Hands the raw value on unchanged.
    public func finalize(raw: Raw) throws -> Final { raw }
}

extension Request {
    /// Hands the result on unchanged.
    public func postProcess(result: Final) async -> Final { result }
}

extension Resource: Request {
    /// A resource is the simplest request: itself, its value unchanged.
    public var resource: Resource { self }
}
