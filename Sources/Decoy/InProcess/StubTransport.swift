public import DecoyClient
public import Foundation
public import HTTPTypes

/// The stub engine as a ``Transport``: ``APIClient`` requests answered in-process, no sockets.
///
/// ```swift
/// let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))
/// ```
public struct StubTransport: Transport {
    /// The engine that answers.
    public let engine: StubEngine

    /// Creates a transport answering from `registry`.
    public init(_ registry: StubRegistry) {
        self.init(engine: registry.engine)
    }

    /// Creates a transport answering from `engine`, for custom providers.
    public init(engine: StubEngine) {
        self.engine = engine
    }

    /// Answers `request` from the engine, or throws the `URLError` a fault stands for.
    public func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        try await Self.translate(engine.prepare(StubRequest(request, body: body)).value())
    }

    /// The delivery as an ``APIClient`` takes an answer: the head, with a repeated field's values
    /// joined as URLSession joins them, and the whole body once its pieces have all arrived.
    static func translate(_ delivery: Delivery) async throws -> (HTTPResponse, Data) {
        switch delivery.content {
        case .response(var head, let body):
            head.headerFields = head.headerFields.joiningRepeatedNames
            if case .whole(let data) = body { return (head, data) }
            var data = Data()
            try await delivery.send(body) { data.append($0) }
            return (head, data)
        case .fault(let fault, let hold):
            try await delivery.fail(fault, after: hold)
        }
    }
}
