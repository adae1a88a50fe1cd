/// One way a stub says what its OpenAPI document does not allow: a request no operation accepts,
/// or an answer the operation does not declare. It names the stub, the operation, what differs,
/// where in the stub, and where in the document.
///
/// ```swift
/// for drift in registry.drift(against: spec).drift { print(drift) }
/// // GET /users/{id}: getUser (GET /users/{id}): /response/jsonBody/id: expected integer, got "7"
/// //   (users.yaml#/components/schemas/User/properties/id/type)
/// ```
public struct StubDrift: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// Where the stub is: `users.yaml:12` for a stub file, its route for a stub registered in code.
    public let stub: String
    /// The operation the stub was checked against, by its `operationId`, method and path
    /// template: `getUser (GET /users/{id})`; `nil` when none covers the stub.
    public let operation: String?
    /// What differs: `expected integer, got "7"`.
    public let message: String
    /// Where in the stub, as a JSON pointer into the stub as a stub file writes it (WireMock's
    /// form, a JSON body in `jsonBody`): `/response/status`, `/response/jsonBody/owner/id`,
    /// `/request/queryParameters/limit`; `nil` when the whole stub is meant.
    public let stubPointer: String?
    /// Where in the document, its name and a JSON pointer:
    /// `users.yaml#/components/schemas/User/properties/id/type`; `nil` when nothing there says it.
    public let documentPointer: String?

    package init(
        stub: String, operation: String?, message: String, stubPointer: String? = nil, documentPointer: String? = nil
    ) {
        (self.stub, self.operation, self.message) = (stub, operation, message)
        (self.stubPointer, self.documentPointer) = (stubPointer, documentPointer)
    }

    /// `users.yaml:12: getUser (GET /users/{id}): /response/jsonBody/id: expected integer, got "7"
    /// (users.yaml#/components/schemas/User/properties/id/type)`.
    public var description: String {
        "\(stub): \(operation.map { "\($0): " } ?? "")\(stubPointer.map { "\($0): " } ?? "")\(message)"
            + (documentPointer.map { " (\($0))" } ?? "")
    }
}

/// What checking stubs against OpenAPI documents found: the drift, the stubs no document covers,
/// and the stubs whose answer could not be checked.
public struct StubDriftReport: Sendable, Encodable, CustomStringConvertible {
    /// How many stubs were checked.
    public let stubs: Int
    /// Every way a stub differs from the operation it stands for, in the stubs' order.
    public let drift: [StubDrift]
    /// The stubs no document covers at all: a path outside every document's paths, or a route
    /// too wide to stand for one operation (any method, any path, a regular expression).
    public let uncovered: [StubDrift]
    /// The stubs whose answer was not checked, each with why: one chosen per request (a sequence,
    /// a closure), a template that cannot be rendered for a sample request, a fault.
    public let skipped: [StubDrift]

    /// Whether a stub differs from its document; with `strict`, an uncovered stub counts too.
    public func hasDrift(strict: Bool = false) -> Bool {
        !drift.isEmpty || (strict && !uncovered.isEmpty)
    }

    /// A line per drift, then per uncovered stub, then per skipped one.
    public var description: String {
        (drift.map { "drift: \($0)" } + uncovered.map { "not covered: \($0)" } + skipped.map { "not checked: \($0)" })
            .joined(separator: "\n")
    }
}
