import DecoyClient

/// One way a proxied response differs from what it is checked against (an OpenAPI document, or
/// the stub that stands for the request): the journal keeps it with the response, the request log
/// warns of it, and the dashboard marks the request.
package struct ResponseDrift: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What the response was held against: `getUser (GET /users/{id})`, or a stub's place.
    package let against: String?
    /// What differs: `expected integer, got "7"`.
    package let message: String
    /// Where in the response, as a stub file writes it: `/response/jsonBody/id`.
    package let pointer: String?
    /// Where in the document, its name and a JSON pointer; `nil` when no document says it.
    package let documentPointer: String?

    package init(against: String?, message: String, pointer: String?, documentPointer: String?) {
        (self.against, self.message, self.pointer, self.documentPointer) = (against, message, pointer, documentPointer)
    }

    /// `/response/jsonBody/id: expected integer, got "7" (users.yaml#/components/schemas/User/properties/id/type)`.
    package var description: String {
        "\(pointer.map { "\($0): " } ?? "")\(message)" + (documentPointer.map { " (\($0))" } ?? "")
    }
}

/// What a registry's engines do with each response a ``ProxyStub`` brings back, before it goes
/// on unchanged: the differences it returns are kept with the response.
package typealias ProxiedResponseCheck = @Sendable (StubRequest, StubResponse) -> [ResponseDrift]

/// The check of proxied responses, shared by a registry and its engines so that one set after a
/// server started reaches it.
final class ProxiedResponseCheckSetting: Sendable {
    private let check = Mutex<ProxiedResponseCheck?>(nil)

    var value: ProxiedResponseCheck? {
        get { check.withLock { $0 } }
        set { check.withLock { $0 = newValue } }
    }
}

extension Stub {
    /// Whether the stub sends requests on to a real server, so that what it answers is a real response.
    var isProxy: Bool {
        switch self {
        case is ProxyStub: true
        case let transition as ScenarioTransitionStub: transition.stub.isProxy
        default: false
        }
    }
}
