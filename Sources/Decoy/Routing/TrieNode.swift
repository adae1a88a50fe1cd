/// A node of the segment trie: children by literal segment, one child for any single segment.
///
/// A class, so that walking down reads a reference instead of copying every buffer of a node.
/// Lookups read a snapshot of the table outside the registry's lock, so a trie a snapshot may
/// share is never changed: `RouteTable` writes to a ``copy()`` of it instead.
///
/// `@unchecked`: its properties are `var`s, changed only under the registry's lock on a trie no
/// snapshot shares yet, so every thread that can reach a node reads one that no longer changes.
final class TrieNode: @unchecked Sendable {
    private var literals: [String: TrieNode] = [:]
    /// The entries of `literals` in the order they were added, so that the search for near misses
    /// walks them the same way in every registry with the same stubs, without hashing each key again.
    private var literalOrder: [(key: String, node: TrieNode)] = []
    private var anySegment: [TrieNode] = []
    /// Template routes ending here.
    private var templates: [RouteEntry] = []
    /// Template routes ending here with `**`, which takes any rest of the path.
    private var rests: [RouteEntry] = []
    /// Literal routes ending here, kept only to find near misses.
    private var literalRoutes: [RouteEntry] = []
    /// Regular-expression routes whose expression starts with the path to here as plain text;
    /// like `rests`, they may match any longer path.
    private var expressionRoutes: [RouteEntry] = []
    /// The keys of `literals` by each of their ``SegmentEdits/variants(of:)``, in the order they
    /// were added: the children one edit from a request's segment are found with a lookup per
    /// variant of the segment, however many children there are.
    private var literalsByVariant: [String: [String]] = [:]

    /// What a route ending at a node is, which decides where the node keeps it.
    enum Ending {
        /// A template path: matched through the trie.
        case template
        /// A literal path, hashed for matching: kept here for near misses only.
        case literal
        /// A regular expression, kept at the plain segments it starts with.
        case expression
    }

    /// A deep copy, sharing only the entries, which never change.
    func copy() -> TrieNode {
        let copy = TrieNode()
        copy.literals = literals.mapValues { $0.copy() }
        copy.literalOrder = literalOrder.map { ($0.key, copy.literals[$0.key]!) }
        copy.anySegment = anySegment.map { $0.copy() }
        copy.templates = templates
        copy.rests = rests
        copy.literalRoutes = literalRoutes
        copy.expressionRoutes = expressionRoutes
        copy.literalsByVariant = literalsByVariant
        return copy
    }

    func insert(_ entry: RouteEntry, along segments: ArraySlice<PathSegment>, as ending: Ending) {
        guard let segment = segments.first else {
            switch ending {
            case .template: templates.append(entry)
            case .literal: literalRoutes.append(entry)
            case .expression: expressionRoutes.append(entry)
            }
            return
        }
        switch segment {
        case .rest:
            rests.append(entry)
        case .literal(let text):
            let child = literals[text] ?? TrieNode()
            if literals[text] == nil {
                literalOrder.append((text, child))
                for variant in SegmentEdits.variants(of: text) { literalsByVariant[variant, default: []].append(text) }
            }
            literals[text] = child
            child.insert(entry, along: segments.dropFirst(), as: ending)
        case .parameter, .wildcard:
            if anySegment.isEmpty { anySegment.append(TrieNode()) }
            anySegment[0].insert(entry, along: segments.dropFirst(), as: ending)
        }
    }

    func remove(_ id: UInt64, along segments: ArraySlice<PathSegment>) {
        guard let segment = segments.first else {
            templates.removeAll { $0.id == id }
            literalRoutes.removeAll { $0.id == id }
            expressionRoutes.removeAll { $0.id == id }
            return
        }
        switch segment {
        case .rest:
            rests.removeAll { $0.id == id }
        case .literal(let text):
            literals[text]?.remove(id, along: segments.dropFirst())
            if literals[text]?.isEmpty == true {
                literals[text] = nil
                literalOrder.removeAll { $0.key == text }
                for variant in SegmentEdits.variants(of: text) {
                    literalsByVariant[variant]?.removeAll { $0 == text }
                    if literalsByVariant[variant]?.isEmpty == true { literalsByVariant[variant] = nil }
                }
            }
        case .parameter, .wildcard:
            anySegment[0].remove(id, along: segments.dropFirst())
            if anySegment[0].isEmpty { anySegment = [] }
        }
    }

    private var isEmpty: Bool {
        literals.isEmpty && anySegment.isEmpty && templates.isEmpty && rests.isEmpty && literalRoutes.isEmpty
            && expressionRoutes.isEmpty
    }

    /// Calls `visit` with every template route whose path fits `segments`.
    func visitTemplates(matching segments: ArraySlice<Substring>, _ visit: (RouteEntry) -> Void) {
        rests.forEach(visit)
        guard let segment = segments.first else {
            templates.forEach(visit)
            return
        }
        literals[String(segment)]?.visitTemplates(matching: segments.dropFirst(), visit)
        anySegment.first?.visitTemplates(matching: segments.dropFirst(), visit)
    }

    /// Calls `visit` with every regular-expression route met along `segments`: those whose plain
    /// start the path goes through, to be tried on it.
    func visitExpressions(along segments: ArraySlice<Substring>, _ visit: (RouteEntry) -> Void) {
        expressionRoutes.forEach(visit)
        guard let segment = segments.first else { return }
        literals[String(segment)]?.visitExpressions(along: segments.dropFirst(), visit)
    }

    /// Routes whose paths are near `segments`, found nearest first within a fixed budget, so that
    /// an unmatched request never walks every route.
    ///
    /// The walk is best first over the cost of the path so far: a segment that fits (a literal
    /// that equals it, a parameter, `*`) costs nothing, a literal that differs costs one, and so
    /// does ending before or after the request does. Regular-expression routes are met at the
    /// plain segments they start with, as `**` routes are. Of a node's differing children it
    /// tries first those one edit from the request's segment, a typo's, found by the segment's
    /// variants however many children there are, then the others in the order they were added,
    /// at most `fanOut` of each, so that the same stubs always give the same routes. It stops
    /// once it holds `limit` routes or has taken `budget` steps.
    func nearRoutes(to segments: [Substring], limit: Int, budget: Int, fanOut: Int) -> [RouteEntry] {
        enum Place {
            /// Walking the request's segments; `depth` of them are behind.
            case along(depth: Int)
            /// Past the request's last segment: routes here and below are longer than the request.
            case pastEnd
            /// The routes ending here, which are shorter than the request.
            case endingShort
        }
        let maximumCost = segments.count + 1
        // A step costs nothing or one more than the node it leaves, so two queues make the whole
        // best-first order: the nodes at the cost being walked, and those one dearer, each in the
        // order pushed. Made once with room for a few nodes' pushes, then reused level after level.
        var cost = 0
        var queue: [(node: TrieNode, place: Place)] = []
        var dearer: [(node: TrieNode, place: Place)] = []
        queue.reserveCapacity(4 * fanOut + 8)
        dearer.reserveCapacity(4 * fanOut + 8)
        func push(_ node: TrieNode, _ place: Place, dearer isDearer: Bool) {
            if isDearer {
                if cost < maximumCost { dearer.append((node, place)) }
            } else {
                queue.append((node, place))
            }
        }
        /// The first `fanOut` literal children other than `skipping` and `typos`, in the order they were added.
        func pushLiterals(
            of node: TrieNode, skipping: String?, typos: [String] = [], _ place: Place, dearer isDearer: Bool
        ) {
            var pushed = 0
            for (key, child) in node.literalOrder {
                if pushed == fanOut { break }
                if key == skipping || typos.contains(key) { continue }
                push(child, place, dearer: isDearer)
                pushed += 1
            }
        }
        push(self, .along(depth: 0), dearer: false)
        var found: [RouteEntry] = []
        found.reserveCapacity(limit)
        /// Appends entries while fewer than `limit` are found, without joining arrays first.
        func take(_ entries: [RouteEntry]) {
            if !entries.isEmpty { found += entries.prefix(limit - found.count) }
        }
        // The variants of each of the request's segments, made the first time a node at its depth has
        // literal children to look among.
        var variants: [[String]?] = Array(repeating: nil, count: segments.count)
        var steps = 0
        while true {
            var index = 0
            while index < queue.count, found.count < limit, steps < budget {
                let (node, place) = queue[index]
                index += 1
                steps += 1
                switch place {
                case .endingShort:
                    take(node.templates)
                    take(node.literalRoutes)
                case .pastEnd:
                    take(node.templates)
                    take(node.literalRoutes)
                    take(node.rests)
                    take(node.expressionRoutes)
                    pushLiterals(of: node, skipping: nil, .pastEnd, dearer: false)
                    for child in node.anySegment { push(child, .pastEnd, dearer: false) }
                case .along(let depth):
                    take(node.rests)
                    take(node.expressionRoutes)
                    guard depth < segments.count else {
                        take(node.templates)
                        take(node.literalRoutes)
                        pushLiterals(of: node, skipping: nil, .pastEnd, dearer: true)
                        for child in node.anySegment { push(child, .pastEnd, dearer: true) }
                        continue
                    }
                    let segment = String(segments[depth])
                    var typos: [String] = []
                    if !node.literalsByVariant.isEmpty {
                        if variants[depth] == nil { variants[depth] = SegmentEdits.variants(of: segment) }
                        typos = node.literals(oneEditFrom: segment, variants: variants[depth]!, limit: fanOut)
                        for key in typos { push(node.literals[key]!, .along(depth: depth + 1), dearer: true) }
                    }
                    push(node, .endingShort, dearer: true)
                    if let fitting = node.literals[segment] { push(fitting, .along(depth: depth + 1), dearer: false) }
                    for child in node.anySegment { push(child, .along(depth: depth + 1), dearer: false) }
                    pushLiterals(of: node, skipping: segment, typos: typos, .along(depth: depth + 1), dearer: true)
                }
            }
            guard found.count < limit, steps < budget, cost < maximumCost, !dearer.isEmpty else { break }
            cost += 1
            swap(&queue, &dearer)
            dearer.removeAll(keepingCapacity: true)
        }
        return found
    }

    /// The keys of at most `limit` literal children one edit from `segment`, not `segment` itself,
    /// found through its `variants`, in the order of the variants and then of the children added.
    private func literals(oneEditFrom segment: String, variants: [String], limit: Int) -> [String] {
        var keys: [String] = []
        for variant in variants {
            for key in literalsByVariant[variant] ?? [] where key != segment && !keys.contains(key) {
                keys.append(key)
                if keys.count == limit { return keys }
            }
        }
        return keys
    }

    func allTemplates() -> [RouteEntry] {
        templates + rests + literals.values.flatMap { $0.allTemplates() } + anySegment.flatMap { $0.allTemplates() }
    }
}
