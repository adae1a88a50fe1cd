/// Any request whose caller gets a `Value`, whatever its type or raw type: for keeping
/// different requests in one collection or property.
///
/// ```swift
/// let refreshes: [AnyRequest<Void>] = [AnyRequest(MarkAllRead()), AnyRequest(Resource<Void>.post("/sync"))]
/// ```
public struct AnyRequest<Value>: Sendable {
    private let sendThrough: @Sendable (APIClient) async throws(APIError) -> Value

    /// Erases a request whose body decodes.
    public init<R: Request>(_ request: R) where R.Raw: Decodable, R.Final == Value {
        sendThrough = { client async throws(APIError) in try await client.send(request) }
    }

    /// Erases a request that ignores its body.
    public init<R: Request>(_ request: R) where R.Raw == Void, R.Final == Value {
        sendThrough = { client async throws(APIError) in try await client.send(request) }
    }

    /// Sends the erased request through `client`.
    func send(through client: APIClient) async throws(APIError) -> Value {
        try await sendThrough(client)
    }
}

extension APIClient {
    /// Sends an erased request.
    public func send<Value>(_ request: AnyRequest<Value>) async throws(APIError) -> Value {
        try await request.send(through: self)
    }
}
