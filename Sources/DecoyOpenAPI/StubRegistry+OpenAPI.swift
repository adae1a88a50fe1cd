public import Decoy
import DecoyClient
import Foundation
import HTTPTypes

extension StubRegistry {
    /// Registers `stub` for the operation whose `operationId` is `operationID`: its method and
    /// path template come from `spec`.
    ///
    /// ```swift
    /// try registry.register(StubResponse(json: #"{"id": 1, "name": "Ada"}"#), forOperation: "getUser", in: spec)
    /// ```
    @discardableResult
    public func register(_ stub: some Stub, forOperation operationID: String, in spec: OpenAPISpec) throws
        -> StubMapping
    {
        try register(stub, for: spec.operation(operationID).route)
    }

    /// Answers every operation of `spec` from its examples, checking each request against the
    /// document first (a miss gets `400` naming the schema keyword), below every other stub: a route registered or
    /// loaded from stub files wins over the examples. A refused operation is answered with `501`
    /// naming its place and why.
    ///
    /// As OpenAPI matches a request, a concrete path wins over a templated one, and a path with
    /// fewer template parameters over one with more: `/pets/mine` over `/pets/{id}`.
    @discardableResult
    public func registerExamples(of spec: OpenAPISpec) throws -> [StubMapping] {
        let validator = SchemaValidator(document: spec.document)
        func priority(_ path: String) -> Int { OpenAPIExampleStub.priority + PathTemplate(path).parameterCount }
        let served = try spec.operations.map { operation in
            try register(
                OpenAPIExampleStub(operation, validator: validator),
                for: operation.route.priority(priority(operation.path)))
        }
        let refused = try spec.refusals.compactMap { refusal in
            try refusal.operation.map { method, path in
                try register(
                    StubResponse(
                        status: .notImplemented,
                        text:
                            "Decoy does not serve this operation of \(spec.source): "
                            + "\(refusal.pointer): \(refusal.reason)\n"
                    ),
                    for: OpenAPIOperation.route(method, path).priority(priority(path)))
            }
        }
        return served + refused
    }

    /// Checks every stub registered, in code or from stub files, against `specs`: each stub's
    /// route must be one an operation accepts, and its answer one the operation declares (status,
    /// `Content-Type`, body against the response's schema, required header fields). A templated
    /// answer is rendered for a sample request of its operation first. The document's own
    /// examples, registered with ``registerExamples(of:)``, are left out.
    ///
    /// ```swift
    /// let report = registry.drift(against: spec)
    /// #expect(report.drift.isEmpty, "\(report)")
    /// ```
    public func drift(against specs: OpenAPISpec...) -> StubDriftReport {
        drift(against: specs)
    }

    /// Checks every stub registered against `specs`; see ``drift(against:)-(OpenAPISpec...)``.
    public func drift(against specs: [OpenAPISpec]) -> StubDriftReport {
        let stubs = contents.withLock(\.registrations).compactMap { mapping, stub -> StubDriftCheck.CheckedStub? in
            guard mapping.route.priority < OpenAPIExampleStub.priority else { return nil }
            let place: String =
                if case .file(let loaded) = mapping.origin { "\(loaded.file):\(loaded.line)" } else {
                    "\(mapping.route)"
                }
            return StubDriftCheck.CheckedStub(place: place, route: mapping.route, stub: stub)
        }
        return StubDriftCheck(specs: specs).check(stubs)
    }
}
