/// Why a stub or route cannot be written as stub-file JSON, and so cannot be sent to a server in
/// another process: a closure, a custom ``Stub`` type, or a shape a stub file has no field for.
public struct StubEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stub or part that cannot be written, with where it sits: `ClosureStub`, or
    /// `FailingStub › otherwise › ClosureStub` for one inside another.
    public let stub: String
    /// Why it cannot.
    public let reason: String

    /// Creates an error about `stub`.
    public init(stub: String, reason: String) {
        self.stub = stub
        self.reason = reason
    }

    /// `ClosureStub cannot be sent to a server: …`.
    public var description: String { "\(stub) cannot be sent to a server: \(reason)" }

    /// The same error, about a part of `outer`.
    func inside(_ outer: String) -> StubEncodingError {
        StubEncodingError(stub: "\(outer) › \(stub)", reason: reason)
    }
}
