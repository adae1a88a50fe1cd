/// The route of a stub that a stubs folder had but that was refused, with why: a request that
/// only it would have matched is told so in its `404`, rather than only that nothing matched.
package struct RefusedRoute: Sendable {
    let pattern: RequestPattern
    /// Where the stub is, such as `mappings/users.json:12`.
    let place: String
    /// The first problem, as the folder's report words it.
    let reason: String

    package init(pattern: RequestPattern, place: String, reason: String) {
        (self.pattern, self.place, self.reason) = (pattern, place, reason)
    }

    /// The near miss that names the refused stub, for a request it matches.
    func nearMiss(for request: StubRequest) -> NearMiss? {
        guard pattern.matches(request) else { return nil }
        return NearMiss(route: pattern.route, reason: "would match, but the stub at \(place) was refused: \(reason)")
    }
}
