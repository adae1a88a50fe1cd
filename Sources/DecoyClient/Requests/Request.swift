import Foundation
public import HTTPTypes

/// A type per endpoint: the ``Resource`` it sends, and the steps that turn what its body decodes
/// to into what the caller gets.
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
/// `finalize(raw:)`: both default to the raw value. Stored ``Query`` and ``Header`` properties
/// join the resource's query items and header fields. Requests of one `Final` type keep
/// together as `[any Request<Final>]`, each sent by the same `send`.
public protocol Request<Final>: Sendable {
    /// What the response body decodes to: `Void` to ignore it, `Data`, `String` or any
    /// `Decodable` type, or what the resource's own decoding step makes.
    associatedtype Raw
    /// What the caller gets.
    associatedtype Final = Raw

    /// What to send, with everything a ``Resource`` can say: its path or whole URL, query,
    /// headers, body, envelope, decoding, cache policy and per-request overrides.
    var resource: Resource<Raw> { get }

    /// A last look at the request before it goes out, such as to sign it; the request unchanged
    /// by default.
    func prepare(request: HTTPRequest) -> HTTPRequest

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
    /// The request unchanged.
    public func prepare(request: HTTPRequest) -> HTTPRequest { request }

    /// Hands the result on unchanged.
    public func postProcess(result: Final) async -> Final { result }

    /// The resource with the query items and header fields of the request's stored ``Query``
    /// and ``Header`` properties first.
    ///
    /// A resource has none, and is not reflected: that would cost every plain send.
    var resourceWithParameters: Resource<Raw> {
        let resource = resource
        guard Self.self != Resource<Raw>.self else { return resource }
        var items: [URLQueryItem] = []
        var fields: [HTTPField] = []
        for case let parameter as any RequestParameter in Mirror(reflecting: self).children.map(\.value) {
            parameter.add(to: &items, &fields)
        }
        guard !fields.isEmpty || !items.isEmpty else { return resource }
        return resource.with {
            $0.query = items + $0.query
            $0.headerFields = HTTPFields(fields + Array($0.headerFields))
        }
    }
}

extension Resource: Request {
    /// A resource is the simplest request: itself, its value unchanged.
    public var resource: Resource { self }
}
