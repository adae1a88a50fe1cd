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
        let answer = try await engine.answer(StubRequest(request, body: body))
        let response = answer.response
        try await engine.waitOut(response.fault)
        if let fault = response.fault { throw fault.inProcessError }
        let body = request.method == .head ? Data() : response.body
        // The whole body is returned at once, so the pieces only pace it.
        try await engine.dribble(body, response.throttle) { _ in }
        return (HTTPResponse(status: response.status, headerFields: response.headerFields.joiningRepeatedNames), body)
    }
}

extension StubEngine {
    /// A timeout fault answers nothing until the caller gives up, that is, until cancellation.
    func waitOut(_ fault: Fault?) async throws {
        guard fault == .timeout else { return }
        try await clock.sleep(for: .seconds(365 * 24 * 3600))
    }
}
