package import Foundation

/// What a registry holds behind its one lock: the route table lookups read, each registration's
/// mapping, and the registrations from code and files that the admin API took away, which a
/// reset brings back.
package struct RegistryContents {
    struct Record {
        let pattern: RequestPattern
        let stub: any Stub
        let mapping: StubMapping
    }

    private(set) var table = RouteTable() {
        didSet { snapshot = nil }
    }
    /// The table as lookups last took it, kept until the next change, so that taking it costs
    /// one reference count rather than one per buffer of the table.
    private var snapshot: RouteTableSnapshot?
    private var records: [UInt64: Record] = [:]
    private var numbersByID: [String: UInt64] = [:]
    /// Removed or replaced through the admin API, by registration number; a reset restores them.
    private var removedBaseline: [UInt64: Record] = [:]
    /// The stubs folder loaded last, where `bodyFileName`s of stubs added later are looked up.
    package var folder: URL? {
        didSet { staticFilesRoot = folder.map { $0.standardizedFileURL.resolvingSymlinksInPath().path + "/__files" } }
    }
    /// The folder's `__files/`, its symbolic links resolved once per load rather than per request.
    private(set) var staticFilesRoot: String?
    /// What loading the folder last found, as the admin API lists it.
    package var folderReport: (any Encodable & Sendable)?
    /// The stubs the folder loaded last refused.
    package var refused: [RefusedStub] = [] {
        didSet { snapshot = nil }
    }
    /// How loads and the admin API read stub documents; see ``StubRegistry/templatesEveryResponse``.
    package var fileOptions = StubFileOptions()

    /// The mappings, newest first. The numbers are sorted, not the records, which are large: with
    /// 10,000 stubs, moving them about was most of what listing them cost, under the registry's lock.
    package var mappings: [StubMapping] {
        records.keys.sorted(by: >).map { records[$0]!.mapping }
    }

    /// Each registration's mapping and stub, oldest first, a scenario's transition taken off the
    /// stub: what checking the stubs against an OpenAPI document reads.
    package var registrations: [(mapping: StubMapping, stub: any Stub)] {
        records.keys.sorted().map { number in
            let record = records[number]!
            return (record.mapping, (record.stub as? ScenarioTransitionStub)?.stub ?? record.stub)
        }
    }

    /// The table for a lookup outside the lock.
    mutating func tableForLookup() -> RouteTableSnapshot {
        if let snapshot { return snapshot }
        let taken = RouteTableSnapshot(table: table, refused: refused)
        snapshot = taken
        return taken
    }

    package func mapping(id: String) -> StubMapping? {
        numbersByID[id].flatMap { records[$0]?.mapping }
    }

    /// Registers `stub`; a registration with the same id is replaced, restorably when it is from code or a file.
    package mutating func insert(
        _ pattern: RequestPattern, stub: any Stub, id: String, origin: StubMapping.Origin,
        json: @autoclosure @escaping @Sendable () -> String, number: UInt64? = nil
    ) -> StubMapping {
        if let existing = numbersByID[id] { remove(existing, restorable: true) }
        let number = table.insert(pattern, stub: stub, number: number)
        let mapping = StubMapping(
            id: id, handle: StubHandle(id: id, route: pattern.route, number: number), origin: origin, json: json)
        records[number] = Record(pattern: pattern, stub: stub, mapping: mapping)
        numbersByID[id] = number
        return mapping
    }

    /// Removes a registration; when `restorable`, one from code or a file comes back on ``restoreBaseline()``.
    @discardableResult
    mutating func remove(_ number: UInt64, restorable: Bool) -> StubMapping? {
        guard let record = records.removeValue(forKey: number) else {
            if !restorable { removedBaseline[number] = nil }
            return nil
        }
        table.remove(number)
        numbersByID[record.mapping.id] = nil
        if restorable, record.mapping.origin != .adminAPI { removedBaseline[number] = record }
        return record.mapping
    }

    /// Removes the registration `id`, restorably.
    package mutating func remove(id: String) -> StubMapping? {
        numbersByID[id].flatMap { remove($0, restorable: true) }
    }

    package mutating func removeAll(restorable: Bool) {
        for number in Array(records.keys) { remove(number, restorable: restorable) }
        if !restorable { removedBaseline = [:] }
    }

    /// Removes what the admin API added and brings back what it removed, each at its old rank.
    mutating func restoreBaseline() {
        for (number, record) in records where record.mapping.origin == .adminAPI { remove(number, restorable: false) }
        for (number, record) in removedBaseline.sorted(by: { $0.key < $1.key }) {
            _ = insert(
                record.pattern, stub: record.stub, id: record.mapping.id, origin: record.mapping.origin,
                json: record.mapping.json, number: number)
        }
        removedBaseline = [:]
    }

    /// Removes every registration that came from stub files, for a reload, but those from the
    /// files in `kept`.
    package mutating func removeFileStubs(keeping kept: Set<String> = []) {
        func isRemoved(_ record: Record) -> Bool {
            guard let file = record.mapping.origin.file else { return false }
            return !kept.contains(file)
        }
        for (number, record) in records where isRemoved(record) { remove(number, restorable: false) }
        removedBaseline = removedBaseline.filter { !isRemoved($0.value) }
    }

    /// The files whose stubs are registered.
    package var files: Set<String> {
        Set(records.values.compactMap(\.mapping.origin.file))
    }
}

extension StubMapping.Origin {
    /// The stub file it came from, relative to its folder; `nil` when not from a file.
    var file: String? {
        if case .file(let stub) = self { stub.file } else { nil }
    }
}

/// A route table shared by the lookups made until the registry next changes, with the 404s of
/// the unmatched requests that were asked for again: it is made anew whenever the routes change,
/// and the 404s go with it.
final class RouteTableSnapshot: Sendable {
    let table: RouteTable
    let refused: [RefusedStub]
    /// The 404s of unmatched requests that depend on their request line only and were asked for
    /// before; the only memo of them, so that a repeated request finds its closest routes, its
    /// 404 and the servings' encodings of it without working any of them out again.
    private let unmatched = BoundedMemo<RequestLine, Unmatched>()
    /// Whether the refused stubs a request fits follow from its request line alone, as the memo's
    /// key needs.
    private let refusalsDependOnLineOnly: Bool

    init(table: RouteTable, refused: [RefusedStub]) {
        self.table = table
        self.refused = refused
        refusalsDependOnLineOnly = refused.allSatisfy { $0.pattern?.route.dependsOnRequestLineOnly ?? true }
    }

    /// Looks `request` up in the table; an unmatched request that a refused stub fits is told so first.
    func lookup(_ request: StubRequest, scenarios: ScenarioStates) -> StubLookup {
        let (match, anyPathMatches) = table.match(request, scenarios: scenarios)
        if let match { return .matched(match) }
        let line = RequestLine(request)
        let (made, isRepeated) = unmatched.lookUp(line)
        if let made { return .unmatched(made) }
        var (misses, dependsOnLineOnly) = table.nearMisses(
            for: request, scenarios: scenarios, anyPathMatches: anyPathMatches)
        if !refused.isEmpty { misses = refused.compactMap { $0.nearMiss(for: request) } + misses }
        let isKept = dependsOnLineOnly && refusalsDependOnLineOnly && isRepeated
        let answer = Unmatched(request, nearMisses: misses, isServedOnce: !isKept)
        if isKept { unmatched.keep(answer, for: line) }
        return .unmatched(answer)
    }
}
