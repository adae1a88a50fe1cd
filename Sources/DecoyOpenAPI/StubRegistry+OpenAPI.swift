public import Decoy

extension StubRegistry {
    /// Registers `stub` for the operation whose `operationId` is `operationID`: its method and
    /// path template come from `spec`.
    ///
    /// ```swift
    /// try registry.register(StubResponse(json: #"{"id": 1, "name": "Ada"}"#), forOperation: "getUser", in: spec)
    /// ```
    @discardableResult
    public func register(_ stub: some Stub, forOperation operationID: String, in spec: OpenAPISpec) throws -> StubHandle
    {
        try register(stub, for: spec.operation(operationID).route)
    }

    /// Answers every operation of `spec` from its examples, checking each request against the
    /// document first (a miss gets `400` naming the schema keyword), below every other stub: a route registered or
    /// loaded from stub files wins over the examples.
    @discardableResult
    public func registerExamples(of spec: OpenAPISpec) throws -> [StubHandle] {
        let validator = SchemaValidator(document: spec.document)
        return try spec.operations.map { operation in
            try register(
                OpenAPIExampleStub(operation, validator: validator),
                for: operation.route.priority(OpenAPIExampleStub.priority))
        }
    }
}
