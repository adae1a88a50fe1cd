import Decoy
import DecoyClient
import DecoyRemote
import DecoyServer
import DecoyServerTesting
import DecoyTestSupport
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `MockServer` on an ephemeral port with a `RemoteDecoy` pointed at it, stopped when `body` ends.
func withRemote<Result>(
    _ registry: StubRegistry = StubRegistry(), access: MockServer.AdminAccess = .open, token: String? = nil,
    _ body: (RemoteDecoy, MockServer) async throws -> Result
) async throws -> Result {
    return try await withMockServer(registry: registry, configuration: .init(adminAccess: access)) { server in
        try await body(RemoteDecoy(baseURL: server.baseURL, token: token), server)
    }
}

/// What a client saw for one request: the status and body, or the error's code for a fault.
struct Outcome: Hashable, CustomStringConvertible {
    let status: Int?
    let body: String
    let error: Int?

    var description: String { error.map { "error \($0)" } ?? "\(status ?? 0) \(body)" }
}

/// One request to `server`, on a fresh session so that no connection is reused across a fault.
func outcome(
    _ server: MockServer, _ method: HTTPRequest.Method = .get, _ target: String, headerFields: [String: String] = [:]
) async -> Outcome {
    var request = URLRequest(url: URL(string: server.baseURL.absoluteString + target)!)
    request.httpMethod = method.rawValue
    request.timeoutInterval = 10
    for (name, value) in headerFields { request.setValue(value, forHTTPHeaderField: name) }
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    do {
        let (data, response) = try await session.data(for: request)
        return Outcome(
            status: (response as? HTTPURLResponse)?.statusCode, body: String(decoding: data, as: UTF8.self), error: nil)
    } catch let error as URLError {
        return Outcome(status: nil, body: "", error: error.errorCode)
    } catch {
        return Outcome(status: nil, body: "\(error)", error: -1)
    }
}

/// The messages of the test failures `body` records, which are expected.
/// The messages of the failures an async `body` records, as ``failureMessages(_:)`` collects them.
func awaitedFailureMessages(_ body: () async throws -> Void) async throws -> [String] {
    let messages = Mutex<[String]>([])
    try await withKnownIssue(isIntermittent: true) {
        try await body()
    } matching: { issue in
        messages.withLock { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
        return true
    }
    return messages.withLock { $0 }
}

func failureMessages(_ body: () -> Void) -> [String] {
    let messages = Mutex<[String]>([])
    withKnownIssue(isIntermittent: true) {
        body()
    } matching: { issue in
        messages.withLock { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
        return true
    }
    return messages.withLock { $0 }
}
