public import Decoy
public import DecoyClient
public import Foundation
import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A Decoy server running in another process (`decoy serve`, or a ``MockServer`` elsewhere),
/// driven over its admin API: what a UI test uses, where the app under test runs apart from the test.
///
/// Stubs are the same values as in code, sent as stub-file JSON; a stub that cannot cross a
/// process, such as a closure, is refused with a ``DecoyError`` naming it before anything
/// is sent. It needs Foundation's `URLSession` and nothing else, so it runs inside an iOS UI test.
///
/// Every method that throws throws ``DecoyError``, but for a cancelled task's `CancellationError`:
/// ``DecoyError/serverUnreachable(request:cause:)`` when an admin request gets no answer (the
/// transport's `URLError` its cause), ``DecoyError/refusedByServer(request:status:problems:)`` when
/// the server refuses it, and ``DecoyError/unreadableServerAnswer(request:reason:)`` when its answer
/// cannot be read.
///
/// ```swift
/// let decoy = RemoteDecoy(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// try await decoy.reset()
/// try await decoy.register(StubResponse(json: #"{"name": "Ada"}"#), for: .get("/users/1"))
/// // … drive the app …
/// try await decoy.journal().expect(.get("/users/1"), count: .once)
/// ```
public struct RemoteDecoy: Sendable {
    /// Where the server listens, such as `http://127.0.0.1:8080`.
    public let baseURL: URL
    private let token: String?
    private let transport: URLSessionTransport

    /// Creates a client of the server at `baseURL`.
    ///
    /// - Parameters:
    ///   - token: the admin token the server was started with (`decoy serve --admin-token`), if any.
    ///   - session: the session requests go through; by default one that keeps no cookies.
    public init(baseURL: URL, token: String? = nil, session: URLSession = URLSession(configuration: .withoutCookies()))
    {
        self.baseURL = baseURL
        self.token = token
        self.transport = URLSessionTransport(session: session)
    }

    // MARK: Stubs

    /// Registers `stub` for `route` on the server, as ``StubRegistry/register(_:for:)-(_,Route)`` does in-process.
    ///
    /// - Throws: ``DecoyError`` naming the stub when it cannot cross a process, such as a
    ///   ``ClosureStub``, before anything is sent; ``DecoyError`` when the server refuses it.
    @discardableResult
    public func register(_ stub: some Stub, for route: Route) async throws -> StubMapping {
        let id = UUID().uuidString.lowercased()
        var mapping = try StubEncoder.mapping(stub, for: route)
        mapping["id"] = .string(id)
        let document = JSONValue.object(mapping)
        _ = try await send(.post, "mappings", json: document)
        // The server's registration is numbered in its own registry, not here.
        return StubMapping(
            id: id, handle: StubHandle(id: id, route: route, number: 0), origin: .adminAPI, json: { document.json })
    }

    /// Registers `stub` for the method, path and query of `resource`.
    @discardableResult
    public func register<Value>(_ stub: some Stub, for resource: Resource<Value>) async throws -> StubMapping {
        try await register(stub, for: Route(resource))
    }

    /// Removes a stub registered with ``register(_:for:)-(_,Route)``.
    ///
    /// - Throws: ``DecoyError`` with status 404 when the server has no such stub.
    public func remove(_ mapping: StubMapping) async throws {
        _ = try await send(.delete, "mappings/\(Self.segment(mapping.id))")
    }

    /// Back to the start: the stubs the server was started with (its stubs folder, without what
    /// tests added or removed), an empty journal, every scenario in ``Route/scenarioStarted``, and the
    /// global delay it was started with (`decoy serve --delay`, none by default). WireMock's
    /// `POST /__admin/reset` keeps the global delay; this adds Decoy's `POST /__admin/settings/reset`.
    public func reset() async throws {
        _ = try await send(.post, "reset")
        _ = try await send(.post, "settings/reset")
    }

    /// Empties the server's journal.
    public func resetJournal() async throws {
        _ = try await send(.delete, "requests")
    }

    /// Moves every scenario back to ``Route/scenarioStarted``.
    public func resetScenarios() async throws {
        _ = try await send(.post, "scenarios/reset")
    }

    /// Moves the scenario `name` to `state`.
    ///
    /// - Throws: ``DecoyError`` with status 404 when no stub on the server takes part in the scenario.
    public func setScenarioState(_ name: String, to state: String) async throws {
        _ = try await send(.put, "scenarios/\(Self.segment(name))/state", json: .object(["state": .string(state)]))
    }

    /// Delays every stub whose response sets no delay of its own by `delay`, a whole number of
    /// milliseconds; `.zero` for none.
    ///
    /// - Throws: ``DecoyError`` for a delay in fractions of a millisecond, before anything is sent.
    public func setGlobalDelay(_ delay: Duration) async throws {
        let milliseconds = try StubEncoder.milliseconds(delay, "the global delay")
        _ = try await send(.post, "settings", json: .object(["fixedDelay": milliseconds]))
    }

    // MARK: Journal

    /// The server's journal as it is now: a snapshot that DecoyTesting's `expect…` assertions and
    /// ``RequestJournal/verify(_:count:)`` read as they read an in-process journal, with the same
    /// messages and near misses.
    public func journal() async throws -> RequestJournal {
        let data = try await send(.get, "requests")
        do {
            return try ServeEvents.journal(from: data)
        } catch {
            throw DecoyError.unreadableServerAnswer(request: "GET /__admin/requests", reason: "\(error)")
        }
    }

    /// Whether the server answers `GET /__admin/health`; a UI test asks before it starts.
    public func isHealthy() async -> Bool {
        (try? await send(.get, "health")) != nil
    }

    // MARK: Requests

    /// Sends one admin request and returns the body of its `2xx` answer; every failure is a
    /// ``DecoyError``, the transport's `URLError` kept in ``DecoyError/serverUnreachable(request:cause:)``.
    func send(_ method: HTTPRequest.Method, _ endpoint: String, json: JSONValue? = nil) async throws -> Data {
        let name = "\(method) /__admin/\(endpoint)"
        // Joined as text: appending path components would encode the `%` of an encoded segment again.
        let base =
            baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        guard let url = URL(string: "\(base)/__admin/\(endpoint)") else {
            throw DecoyError.serverUnreachable(request: name, cause: URLError(.badURL))
        }
        var request = HTTPRequest(method: method, url: url)
        if let token { request.headerFields[.authorization] = "Bearer \(token)" }
        let body = try json.map { try JSONEncoder().encode($0) }
        if body != nil { request.headerFields[.contentType] = "application/json" }
        let (response, data): (HTTPResponse, Data)
        do {
            (response, data) = try await transport.send(request, body: body)
        } catch let error as URLError {
            throw DecoyError.serverUnreachable(request: name, cause: error)
        }
        guard response.status.kind == .successful else {
            throw DecoyError.refusedByServer(
                request: name, status: response.status.code, problems: Self.problems(in: data))
        }
        return data
    }

    /// `data`, the answer to `method` of `endpoint`, read as `type`; a ``DecoyError`` when it is not one.
    func read<Value: Decodable>(
        _ type: Value.Type, from data: Data, answering method: HTTPRequest.Method, _ endpoint: String
    ) throws(DecoyError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw .unreadableServerAnswer(request: "\(method) /__admin/\(endpoint)", reason: "\(error)")
        }
    }

    /// The problems of WireMock's error shape, `{"errors": [{"title": …, "source": {"pointer": …}}]}`;
    /// the body as it came when it is not in that shape.
    private static func problems(in data: Data) -> [String] {
        struct Errors: Decodable {
            struct Entry: Decodable {
                struct Source: Decodable { let pointer: String? }
                let title: String
                let source: Source?
            }
            let errors: [Entry]
        }
        guard let errors = try? JSONDecoder().decode(Errors.self, from: data), !errors.errors.isEmpty else {
            return [String(decoding: data, as: UTF8.self)]
        }
        return errors.errors.map { error in (error.source?.pointer.map { "\($0): " } ?? "") + error.title }
    }

    /// `text` as one path segment, its `/` and other reserved characters percent-encoded.
    private static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? text
    }
}
