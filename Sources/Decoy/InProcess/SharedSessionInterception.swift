import DecoyClient

#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    import Foundation
#endif

/// Runs `body` with the requests of `URLSession.shared` answered by `registry`'s stubs,
/// in-process, and undoes that when `body` returns or throws: for code under test that calls
/// `URLSession.shared` itself and cannot be given a session.
///
/// ```swift
/// try await withSharedSessionIntercepted(by: registry) {
///     let (data, _) = try await URLSession.shared.data(from: URL(string: "https://api.example.com/users/42")!)
/// }
/// ```
///
/// The interception is global to the process, so **tests that use it cannot run in parallel
/// with each other**: mark their suite `.serialized` (Swift Testing runs tests in parallel by
/// default). A second interception while one is active is refused with
/// ``DecoyError``, rather than answering one test from another's stubs.
///
/// Sessions the code makes itself are not reached: their configuration's protocol classes are
/// consulted before any registered one, on Darwin as in swift-corelibs-foundation. Give such code
/// ``Foundation/URLSession/stubbed(by:configuration:)`` instead. Cookies that responses set go to
/// the shared session's cookie storage, `HTTPCookieStorage.shared`, as they would without Decoy.
public func withSharedSessionIntercepted<Result>(
    by registry: StubRegistry,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result
) async throws -> Result {
    try SharedSessionInterception.start(registry.engine)
    defer { SharedSessionInterception.stop() }
    return try await body()
}

/// The engine answering the shared session, and how it was plugged in.
enum SharedSessionInterception {
    private static let active = Mutex<StubEngine?>(nil)

    static var engine: StubEngine? {
        active.withLock { $0 }
    }

    static func start(_ engine: StubEngine) throws {
        try active.withLock { active in
            guard active == nil else { throw DecoyError.sharedSessionIntercepted }
            active = engine
            _ = URLProtocol.registerClass(InterceptingURLProtocol.self)
            #if canImport(FoundationNetworking)
                // swift-corelibs-foundation's shared session copied the registered classes when it was
                // made, its HTTP protocol first: the interceptor goes in front of its own list.
                let configuration = URLSession.shared.configuration
                configuration.protocolClasses = [InterceptingURLProtocol.self] + (configuration.protocolClasses ?? [])
            #endif
        }
    }

    static func stop() {
        active.withLock { active in
            active = nil
            URLProtocol.unregisterClass(InterceptingURLProtocol.self)
            #if canImport(FoundationNetworking)
                let configuration = URLSession.shared.configuration
                configuration.protocolClasses = configuration.protocolClasses?.filter {
                    $0 != InterceptingURLProtocol.self
                }
            #endif
        }
    }
}

/// ``StubURLProtocol`` answering whatever session asks it, from the active interception.
final class InterceptingURLProtocol: StubURLProtocol {
    /// Takes requests only while an interception is active.
    override class func canInit(with request: URLRequest) -> Bool {
        SharedSessionInterception.engine != nil
    }

    override class func engine(for request: URLRequest, task: URLSessionTask?) -> StubEngine? {
        SharedSessionInterception.engine
    }
}
