/// The registered routes, indexed so that finding a request's stub never scans them all.
///
/// Literal paths hash straight to their routes, template paths sit in a trie of segments, and
/// regular expressions sit in the trie at the plain segments they start with, tried only for a
/// request whose path goes through there. The trie also holds the literal routes for one purpose
/// only: finding the routes closest to a request that matched nothing.
///
/// A value: the registry shares one snapshot of it with the lookups made until it next changes,
/// taken under the registry's lock and matched outside it.
struct RouteTable: Sendable {
    private var literals: [String: [RouteEntry]] = [:]
    private var trie = TrieNode()
    private var expressions: [RouteEntry] = []
    private var segmentsByID: [UInt64: [PathSegment]] = [:]
    private var kindByID: [UInt64: Kind] = [:]
    private var nextID: UInt64 = 0
    /// Template and expression routes need the path in segments; literal routes only its hash,
    /// so a table without the former never splits it.
    private var templateCount = 0

    private enum Kind {
        case literal(String)
        case template, expression
    }

    /// Adds a route under a new number, or under `number` when one restored keeps its old rank.
    mutating func insert(_ pattern: RequestPattern, stub: any Stub, number: UInt64? = nil) -> UInt64 {
        let id = number ?? nextID + 1
        nextID = max(nextID, id)
        let entry = RouteEntry(id: id, pattern: pattern, stub: stub)
        makeTrieUnique()
        switch pattern.path {
        case .expression(_, let plainStart):
            expressions.append(entry)
            kindByID[entry.id] = .expression
            // In the trie as well, at the plain segments it starts with, for near misses only.
            let segments = plainStart.map(PathSegment.literal)
            trie.insert(entry, along: segments[...], as: .expression)
            segmentsByID[entry.id] = segments
        case .segments(let segments):
            if let path = pattern.path.literalPath {
                literals[path, default: []].append(entry)
                kindByID[entry.id] = .literal(path)
            } else {
                kindByID[entry.id] = .template
                templateCount += 1
            }
            let placed = Self.placement(of: pattern, segments: segments)
            trie.insert(entry, along: placed[...], as: pattern.path.literalPath == nil ? .template : .literal)
            segmentsByID[entry.id] = placed
        }
        return entry.id
    }

    mutating func remove(_ id: UInt64) {
        guard let kind = kindByID.removeValue(forKey: id) else { return }
        switch kind {
        case .expression:
            expressions.removeAll { $0.id == id }
        case .literal(let path):
            literals[path]?.removeAll { $0.id == id }
            if literals[path]?.isEmpty == true { literals[path] = nil }
        case .template:
            templateCount -= 1
        }
        if let segments = segmentsByID.removeValue(forKey: id) {
            makeTrieUnique()
            trie.remove(id, along: segments[...])
        }
    }

    /// Where a route sits in the trie: along its path's segments; but a route for any path (`/**`)
    /// whose target must match a regular expression (WireMock's `urlPattern`) sits at the plain
    /// segments that expression starts with, the only paths its target can have, so that a request
    /// elsewhere never runs it. A segment with a `%` ends them: the expression reads the target as
    /// sent, the trie the path decoded.
    private static func placement(of pattern: RequestPattern, segments: [PathSegment]) -> [PathSegment] {
        guard segments == [.rest] else { return segments }
        for case .target(.matches(let expression)) in pattern.route.matchers {
            let plain = PathPattern.plainSegments(startingExpression: expression).prefix { !$0.contains("%") }
            return plain.map(PathSegment.literal) + [.rest]
        }
        return segments
    }

    /// Copies the trie before a change when a lookup's snapshot of the table may be reading it.
    private mutating func makeTrieUnique() {
        if !isKnownUniquelyReferenced(&trie) { trie = trie.copy() }
    }

    mutating func removeAll() {
        // Numbers keep counting, so that no handle or reload from before names a later registration.
        let next = nextID
        self = RouteTable()
        nextID = next
    }

    var entries: [RouteEntry] {
        (literals.values.flatMap { $0 } + trie.allTemplates() + expressions).sorted { $0.id < $1.id }
    }

    /// The stub that answers `request`; else whether any route's path fits it, which
    /// ``nearMisses(for:scenarios:anyPathMatches:)`` takes.
    func match(_ request: StubRequest, scenarios: ScenarioStates) -> (match: StubMatch?, anyPathMatches: Bool) {
        var best: RouteEntry?
        var anyPathMatches = false
        visitPathMatches(of: request) { entry in
            anyPathMatches = true
            guard entry.pattern.mismatchBeyondPath(request, scenarios: scenarios) == nil else { return }
            if let current = best, !entry.outranks(current) { return }
            best = entry
        }
        return (best.map { StubMatch(stub: $0.stub, route: $0.pattern.route) }, anyPathMatches)
    }

    /// The closest routes to `request`, which nothing matched, at most three, and whether they
    /// depend on the request line only; `anyPathMatches` is what ``match(_:scenarios:)`` found.
    func nearMisses(for request: StubRequest, scenarios: ScenarioStates, anyPathMatches: Bool)
        -> (misses: [NearMiss], dependsOnLineOnly: Bool)
    {
        // Gathered by a second walk, which most unmatched requests, fitting no route's path, skip.
        var pathMatches: [RouteEntry] = []
        if anyPathMatches { visitPathMatches(of: request) { pathMatches.append($0) } }
        return nearMisses(
            for: request, segments: request.pathSegments, pathMatches: pathMatches, scenarios: scenarios)
    }

    /// Calls `visit` with every route whose path fits the request's, without gathering them.
    private func visitPathMatches(of request: StubRequest, _ visit: (RouteEntry) -> Void) {
        literals[request.path]?.forEach(visit)
        guard templateCount > 0 || !expressions.isEmpty else { return }
        let segments = request.pathSegments
        if templateCount > 0 { trie.visitTemplates(matching: segments[...], visit) }
        guard !expressions.isEmpty else { return }
        trie.visitExpressions(along: segments[...]) { entry in
            if entry.pattern.path.matches(path: request.path, segments: segments) { visit(entry) }
        }
    }

    /// The closest routes, at most three, ranked as DecoyTesting ranks the journal's near misses
    /// (``Closeness``): among the routes whose path fits and the trie's nearest, the fewest
    /// differences first, then the fewest edits, then the earliest registered. Also whether they depend on the request
    /// line only, as they do when no candidate looks at header fields, cookies, the body or a scenario.
    private func nearMisses(
        for request: StubRequest, segments: [Substring], pathMatches: [RouteEntry], scenarios: ScenarioStates
    ) -> (misses: [NearMiss], dependsOnLineOnly: Bool) {
        // A route both fits the path and is near it: after sorting, its two places are side by
        // side, and dropping the second is cheaper than hashing every candidate into a set.
        var candidates = trie.nearRoutes(to: segments, limit: 16, budget: 64, fanOut: 8)
        candidates += pathMatches
        candidates.sort { $0.id < $1.id }
        var kept = 0
        for index in candidates.indices where kept == 0 || candidates[kept - 1].id != candidates[index].id {
            candidates[kept] = candidates[index]
            kept += 1
        }
        candidates.removeLast(candidates.count - kept)
        // Ranked by how many differences each has; only the three shown get theirs made.
        let nearest = Closeness.nearest(candidates, limit: 3) {
            $0.pattern.distance(request, segments: segments, scenarios: scenarios)
        }
        // Worded only when shown, straight into the 404's body.
        let misses = nearest.map { entry in
            NearMiss(
                route: entry.pattern.route,
                differences: entry.pattern.differences(request, segments: segments, scenarios: scenarios), of: request)
        }
        return (misses, candidates.allSatisfy { $0.pattern.route.dependsOnRequestLineOnly })
    }
}

/// A registered route and its stub; a class, so that gathering candidates copies references only.
final class RouteEntry: Sendable {
    let id: UInt64
    let pattern: RequestPattern
    let stub: any Stub

    init(id: UInt64, pattern: RequestPattern, stub: any Stub) {
        self.id = id
        self.pattern = pattern
        self.stub = stub
    }

    /// Whether this entry wins over `other`: lower priority number, then registered later.
    func outranks(_ other: RouteEntry) -> Bool {
        pattern.route.priority != other.pattern.route.priority
            ? pattern.route.priority < other.pattern.route.priority
            : id > other.id
    }
}
