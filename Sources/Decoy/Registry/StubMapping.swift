import DecoyClient

/// One stub registered for a route, by code, a stub file or the admin API, as WireMock names it:
/// its id, its route and its stub-file JSON. What ``StubRegistry/register(_:for:)-(_,Route)``
/// returns, and ``StubRegistry/remove(_:)`` takes back.
public struct StubMapping: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// Where a mapping came from.
    package enum Origin: Sendable, Hashable {
        /// Registered in code, with ``StubRegistry/register(_:for:)-(_,Route)``.
        case code
        /// Loaded from a stub file.
        case file(LoadedStub)
        /// Added through the admin API, or ``StubRegistry/addMapping(_:)``.
        case adminAPI
    }

    /// The id: the stub file's `id` or `uuid` when it has one, otherwise a new UUID.
    public let id: String
    /// The registration this mapping is, told apart from a later one with the same id.
    package let handle: StubHandle
    /// Where it came from.
    package let origin: Origin
    /// The mapping as WireMock's admin API gives it: the stub-file document with its `id`, for a
    /// stub registered in code too, or only its route when a stub file cannot hold the stub.
    public var json: String { text.value }
    private let text: MappingText

    /// `json` is made on first use: for a stub registered in code it encodes the whole body,
    /// which registering should not pay for, nor under the registry's lock.
    package init(id: String, handle: StubHandle, origin: Origin, json: @escaping @Sendable () -> String) {
        self.id = id
        self.handle = handle
        self.origin = origin
        self.text = MappingText(json)
    }

    /// The mapping as a JSON value, for the admin API to embed in its answers.
    package var document: JSONValue {
        JSONValue(parsing: json) ?? .null
    }

    /// The `metadata` member as JSON text, as matchers read it; none when the mapping has none.
    var metadata: [String] {
        guard case .object(let members) = document, let metadata = members["metadata"] else { return [] }
        return [metadata.json]
    }

    /// The route the stub answers.
    public var route: Route { handle.route }

    /// `id: route`.
    public var description: String { "\(id): \(route)" }

    /// Mappings are equal when they are the same registration.
    public static func == (lhs: StubMapping, rhs: StubMapping) -> Bool {
        lhs.handle == rhs.handle
    }

    /// Hashes the registration, as ``==(_:_:)`` compares it.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(handle)
    }
}

/// A mapping's JSON text, made once, on first use, by whichever thread asks first.
private final class MappingText: Sendable {
    private let make: @Sendable () -> String
    private let made = Mutex<String?>(nil)

    init(_ make: @escaping @Sendable () -> String) {
        self.make = make
    }

    var value: String {
        if let text = made.withLock({ $0 }) { return text }
        // Made outside the lock: two first readers may both make it, and get the same text.
        let text = make()
        made.withLock { $0 = text }
        return text
    }
}
