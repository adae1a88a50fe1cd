/// A provider that finds stubs by route: its lookups say which route matched and, for a request
/// nothing matched, the closest routes and why each missed, which the 404, the admin API's near
/// misses and the dashboard show. A provider without it serves its stubs all the same; its 404
/// names no route and the admin API's near-miss endpoints say that it does not support them.
package protocol RoutedStubProvider: StubProvider {
    /// The stub for `request` with the route it was registered for, or the 404 naming the closest routes.
    func lookup(_ request: StubRequest) -> StubLookup
}

/// A provider whose in-process servings fail `https` requests with a TLS fault, as a server's
/// HTTPS port with that fault fails its handshakes. A provider without it has no TLS fault.
package protocol TLSFaultingProvider: StubProvider {
    /// The fault every `https` request fails with; `nil` for none.
    var tlsFault: TLSFault? { get }
}

extension StubRegistry: RoutedStubProvider, TLSFaultingProvider {}

extension StubProvider {
    /// The lookup of a provider without routes: its stub, with no route, or a `404` made for this
    /// request alone, which names no closest routes.
    package func lookupWithoutRoutes(_ request: StubRequest) -> StubLookup {
        guard let stub = stub(for: request) else {
            return .unmatched(Unmatched(request, nearMisses: [], isServedOnce: true))
        }
        return .matched(StubMatch(stub: stub, route: nil))
    }
}
