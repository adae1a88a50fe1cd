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
    package let engine: StubEngine

    /// Creates a transport answering from `registry`.
    public init(_ registry: StubRegistry) {
        self.init(engine: registry.engine)
    }

    /// Creates a transport answering from `provider`, a custom one, with a journal of its own.
    public init(provider: some StubProvider) {
        self.init(engine: StubEngine(provider: provider))
    }

    /// Creates a transport answering from `engine`.
    package init(engine: StubEngine) {
        self.engine = engine
    }

    /// Answers `request` from the engine, or throws the `URLError` a fault stands for.
    public func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        if let fault = engine.tlsFault(for: request.scheme) { throw fault.urlError }
        return try await Self.translate(engine.prepare(StubRequest(request, body: body)).value())
    }

    /// Answers `request` from the engine with the body handed on piece by piece as the delivery
    /// paces it, each piece when the engine's clock says; a whole body comes as one chunk.
    public func stream(_ request: HTTPRequest, body: UploadBody?) async throws -> (HTTPResponse, ResponseBody) {
        // The engine matches on the whole request body, so an upload is read whole before the
        // engine sees it; its progress is still told piece by piece, as it is over a socket.
        let data = try body.map(Self.read)
        let delivery = try await engine.prepare(StubRequest(request, body: data)).value()
        let (_, content) = try await delivery.headAndBody()
        let chunks = ResponseBody { continuation in
            let pieces = Task {
                do {
                    try await delivery.send(content) { continuation.yield(Data($0)) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in pieces.cancel() }
        }
        return (delivery.head(announcing: content), chunks)
    }

    /// The bytes of `body`, read a piece at a time, each piece reported sent as it is read.
    private static func read(_ body: UploadBody) throws -> Data {
        var data = Data()
        try body.forEachPiece { piece in
            data.append(piece)
            body.reportSent(Int64(data.count))
        }
        return data
    }

    /// The delivery as an ``APIClient`` takes an answer: the head as a server's client receives
    /// it, and the whole body once its pieces have all arrived.
    static func translate(_ delivery: Delivery) async throws -> (HTTPResponse, Data) {
        switch delivery.content {
        case .response(_, let body):
            let announced = delivery.head(announcing: body)
            if case .whole(let data) = body { return (announced, data) }
            var data = Data()
            try await delivery.send(body) { data.append($0) }
            return (announced, data)
        case .fault(let fault, let hold):
            try await delivery.fail(fault, after: hold)
        }
    }
}
