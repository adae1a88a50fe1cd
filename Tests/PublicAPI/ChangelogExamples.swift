// swift-format-ignore-file
// The CHANGELOG's Swift examples, verbatim (DocumentationSyncTests keeps them so), with the public
// API its migrations name. In no target: PublicAPITests compiles it as a user's code outside the
// package, which sees only what is public (the package's own tests also see what is `package`).
import Decoy
import DecoyClient
import DecoyRemote
import DecoyServerTesting
import DecoyStubFiles
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

struct User: Decodable, Sendable { let id: Int; let name: String }

extension Resource where Value == User {
    static func user(id: Int) -> Resource { .get("/users/\(id)") }
}

/// Issue 42, item 5: a resource named by a static member.
func responsesOfAResourceNamedByItsStaticMember(_ client: APIClient) async throws {
    for try await delivery in client.responses(for: .user(id: 1)) { print(delivery.source, delivery.value.name) }
    _ = try await client.send(.user(id: 1))
}

/// RemoteDecoy throws DecoyError only: a URLError is the cause of `.serverUnreachable`.
func aServerNotListeningIsUnreachable(_ decoy: RemoteDecoy) async throws {
    do {
        try await decoy.reset()
    } catch DecoyError.serverUnreachable(_, let cause) where cause.code == .cannotConnectToHost {
        print("start decoy serve first: \(cause.localizedDescription)")
    }
}

/// Stub folders serve what loads: the migration to fail a test on any refused stub.
func aTestFailsOnAnyRefusedStub(_ registry: StubRegistry, _ stubsFolder: URL) throws {
    let report = try registry.load(folder: stubsFolder)
    #expect(report.refused.isEmpty, "\(report.refused.map(\.description))")
    #expect(report.stubs.count == 19)
    let reloaded = try registry.reload(folder: stubsFolder, strict: true)
    for stub in reloaded.stubs { print(stub.file, stub.line, stub.id ?? "-", stub.name ?? "-", stub.route) }
    for stub in reloaded.refused {
        print(stub.file, stub.line, stub.route.map(String.init(describing:)) ?? "-", stub.errors)
    }
}

/// The server mode in DecoyServerTesting: every mode, `.urlProtocol` among them.
func everyMode() -> [ServingMode] {
    let modes = ServingMode.allCases
    return modes.contains(.urlProtocol) ? modes : ServingMode.inProcessModes
}

/// Issue 42, item 3: a global failure handler is given the request.
final class SignOutUnlessSigningIn: APIClientDelegate {
    func client(_ client: APIClient, didFail error: APIError, for request: HTTPRequest) {
        guard request.path != "/login", case .unacceptableStatus(let response) = error else { return }
        print(response.status)
    }
}

func listen(to client: APIClient) async {
    for await failure in client.failures() { print(failure.request.method, failure.error) }
}

/// Issue 42, item 2: the memory cache's two forms.
let caches = [ResponseCache.memory(), .memory(capacity: 1024), .memory(expiry: .seconds(60)), .memory(expiry: nil)]
