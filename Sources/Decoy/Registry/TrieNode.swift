/// A node of the segment trie: children by literal segment, one child for any single segment.
///
/// A class, so that walking down reads a reference instead of copying every buffer of a node.
/// Lookups read a snapshot of the table outside the registry's lock, so a trie a snapshot may
/// share is never changed: `RouteTable` writes to a ``copy()`` of it instead.
final class TrieNode: @unchecked Sendable {
    private var literals: [String: TrieNode] = [:]
    private var anySegment: [TrieNode] = []
    /// Template routes ending here.
    private var templates: [RouteEntry] = []
    /// Template routes ending here with `**`, which takes any rest of the path.
    private var rests: [RouteEntry] = []
    /// Literal routes ending here, kept only to find near misses.
    private var literalRoutes: [RouteEntry] = []

    /// A deep copy, sharing only the entries, which never change.
    func copy() -> TrieNode {
        let copy = TrieNode()
        copy.literals = literals.mapValues { $0.copy() }
        copy.anySegment = anySegment.map { $0.copy() }
        copy.templates = templates
        copy.rests = rests
        copy.literalRoutes = literalRoutes
        return copy
    }

    func insert(_ entry: RouteEntry, along segments: ArraySlice<PathSegment>, asTemplate: Bool) {
        guard let segment = segments.first else {
            if asTemplate { templates.append(entry) } else { literalRoutes.append(entry) }
            return
        }
        switch segment {
        case .rest:
            rests.append(entry)
        case .literal(let text):
            let child = literals[text] ?? TrieNode()
            literals[text] = child
            child.insert(entry, along: segments.dropFirst(), asTemplate: asTemplate)
        case .parameter, .wildcard:
            if anySegment.isEmpty { anySegment.append(TrieNode()) }
            anySegment[0].insert(entry, along: segments.dropFirst(), asTemplate: asTemplate)
        }
    }

    func remove(_ id: UInt64, along segments: ArraySlice<PathSegment>) {
        guard let segment = segments.first else {
            templates.removeAll { $0.id == id }
            literalRoutes.removeAll { $0.id == id }
            return
        }
        switch segment {
        case .rest:
            rests.removeAll { $0.id == id }
        case .literal(let text):
            literals[text]?.remove(id, along: segments.dropFirst())
            if literals[text]?.isEmpty == true { literals[text] = nil }
        case .parameter, .wildcard:
            anySegment[0].remove(id, along: segments.dropFirst())
            if anySegment[0].isEmpty { anySegment = [] }
        }
    }

    private var isEmpty: Bool {
        literals.isEmpty && anySegment.isEmpty && templates.isEmpty && rests.isEmpty && literalRoutes.isEmpty
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

    /// Up to `limit` routes near `segments`: from the deepest node the path reaches, and the one above it.
    func neighbours(of segments: ArraySlice<Substring>, limit: Int) -> [RouteEntry] {
        var path: [TrieNode] = [self]
        var rest = segments
        while let segment = rest.first, let next = path.last!.literals[String(segment)] ?? path.last!.anySegment.first {
            path.append(next)
            rest = rest.dropFirst()
        }
        var found: [RouteEntry] = []
        for node in path.suffix(2).reversed() where found.count < limit {
            node.gather(into: &found, limit: limit)
        }
        var unique: [UInt64: RouteEntry] = [:]
        for entry in found { unique[entry.id] = entry }
        return unique.values.sorted { $0.id < $1.id }
    }

    /// Breadth first, so the routes nearest this node come first.
    private func gather(into found: inout [RouteEntry], limit: Int) {
        var queue: [TrieNode] = [self]
        var index = 0
        while index < queue.count, found.count < limit {
            let node = queue[index]
            index += 1
            found += (node.templates + node.literalRoutes + node.rests).prefix(limit - found.count)
            queue += node.literals.values.prefix(limit)
            queue += node.anySegment
        }
    }

    func allTemplates() -> [RouteEntry] {
        templates + rests + literals.values.flatMap { $0.allTemplates() } + anySegment.flatMap { $0.allTemplates() }
    }
}
