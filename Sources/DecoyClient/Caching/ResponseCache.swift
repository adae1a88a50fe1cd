public import Foundation
import HTTPTypes

/// Keeps responses for ``APIClient`` to serve again without the network, as a ``CachePolicy``
/// says: in memory, on disk, or in both.
///
/// A cache is a store: which of its entries may be served, and when they are revalidated, is the
/// client's decision (RFC 9111 under ``CachePolicy/http``). Caching is best-effort: a cache that
/// cannot read or write (a full disk) answers nothing or drops the response rather than failing
/// the request.
///
/// ```swift
/// let cache = ResponseCache.hybrid(front: .memory(expiry: .seconds(60)), back: .disk(folder: cachesFolder))
/// ```
public struct ResponseCache: Sendable {
    /// Where the entries are.
    let storage: any CacheStorage

    /// A cache in memory, bounded in bytes (32 MiB by default): when an entry would take it past
    /// its capacity, the least recently used entries leave first. An entry expires 300 seconds
    /// after it is stored, measured on `clock`, or once HTTP's rules no longer call it fresh if
    /// that is later, so the cache never drops an answer ``CachePolicy/http`` would still serve
    /// (a `max-age=3600` answer stays an hour).
    public static func memory(
        capacity: Int = 32 * 1024 * 1024, clock: any Clock<Duration> = ContinuousClock()
    ) -> ResponseCache {
        ResponseCache(
            storage: MemoryCache(
                expiry: MemoryCache.defaultExpiry, extendedByFreshness: true, capacity: capacity, clock: clock))
    }

    /// A cache in memory, bounded in bytes (32 MiB by default): when an entry would take it past
    /// its capacity, the least recently used entries leave first. Entries expire `expiry` after
    /// they are stored (never when `nil`), measured on `clock`, however long HTTP's rules would
    /// call them fresh: a limit set here is the cache's own, and beats ``CachePolicy/http``.
    public static func memory(
        expiry: Duration?, capacity: Int = 32 * 1024 * 1024, clock: any Clock<Duration> = ContinuousClock()
    ) -> ResponseCache {
        ResponseCache(storage: MemoryCache(expiry: expiry, capacity: capacity, clock: clock))
    }

    /// A cache of files in `folder`, one per entry, kept across launches, bounded in bytes
    /// (256 MiB by default): when the files take more, the least recently used go first. Entries
    /// expire `expiry` after they are stored (never when `nil`), by wall-clock time as `now`
    /// tells it, because they outlive the process. Files are read and written on a queue of the
    /// cache's own, never on Swift's task threads.
    public static func disk(
        folder: URL, expiry: Duration? = nil, capacity: Int = 256 * 1024 * 1024,
        now: @escaping @Sendable () -> Date = Date.init
    ) -> ResponseCache {
        ResponseCache(storage: DiskCache(folder: folder, expiry: expiry, capacity: capacity, now: now))
    }

    /// Two caches as one, usually a fast one in memory before a lasting one on disk: reads try
    /// `front`, then `back` (copying a hit to the front); writes and removals go to both.
    public static func hybrid(front: ResponseCache, back: ResponseCache) -> ResponseCache {
        ResponseCache(storage: HybridCache(front: front.storage, back: back.storage))
    }

    /// The bytes the entries take now: bodies and header fields in memory, files on disk.
    public func byteCount() async -> Int {
        await storage.byteCount()
    }

    /// Forgets every response.
    public func removeAll() async {
        await storage.removeAll()
    }
}

/// Where a ``ResponseCache`` keeps its entries.
protocol CacheStorage: Sendable {
    /// The response stored for `key` and not expired, if any.
    func response(for key: CacheKey) async -> CachedResponse?
    /// Stores `response` for `key`, replacing what was there.
    func store(_ response: CachedResponse, for key: CacheKey) async
    /// Forgets the response for `key`.
    func removeResponse(for key: CacheKey) async
    /// Forgets every response.
    func removeAll() async
    /// The bytes the entries take now.
    func byteCount() async -> Int
}

/// What a cached response is filed under: the request's method and full URL, and a digest of
/// its credentials.
///
/// The fields a response's `Vary` names are not part of the key but of the entry
/// (``CachedResponse/variantFields``): one variant is kept per key, and a request whose fields
/// differ does not get it.
struct CacheKey: Hashable, Sendable, Codable {
    /// The request method, such as `GET`.
    let method: String
    /// The absolute URL, query included.
    let url: String
    /// A digest of the request's `Authorization` value, `nil` without one, so that what one
    /// credential was answered is never served to another; the credential itself is not kept.
    let credential: String?

    /// The key of `request`.
    init(_ request: HTTPRequest) {
        method = request.method.rawValue
        url = "\(request.scheme ?? "")://\(request.authority ?? "")\(request.path ?? "/")"
        credential = request.headerFields[.authorization].map(stableDigest)
    }
}

/// A response as a cache keeps it: head, complete body, and what RFC 9111 needs to tell its age
/// and which requests it answers.
struct CachedResponse: Sendable, Codable {
    /// Status and header fields.
    let response: HTTPResponse
    /// The body.
    let body: Data
    /// When the request it answers was sent.
    let requested: Date
    /// When it arrived; its age is counted from here.
    let received: Date
    /// The request's values of the header fields the response's `Vary` names (a field the
    /// request lacked is absent): a later request gets this entry only with the same values.
    let variantFields: HTTPFields

    // What HTTP's rules need on every hit, read from the header fields once, when the entry is
    // made, rather than parsed again per request.
    /// The header fields `Vary` names.
    let varyNames: [HTTPField.Name]
    /// How long the response stays fresh, counted from its age when it arrived.
    let freshnessLifetime: TimeInterval
    /// Its age when it arrived (RFC 9111, 4.2.3).
    let initialAge: TimeInterval
    /// Whether it says `no-cache`: revalidated before every use, however fresh.
    let alwaysRevalidates: Bool

    /// Creates an entry from a response and its body, sent at `requested` (by default when it
    /// was `received`) for a request whose fields named by `Vary` were `variantFields`.
    init(
        response: HTTPResponse, body: Data, requested: Date? = nil, received: Date = Date(),
        variantFields: HTTPFields = [:]
    ) {
        self.response = response
        self.body = body
        self.requested = requested ?? received
        self.received = received
        self.variantFields = variantFields
        let control = CacheControl(response.headerFields)
        varyNames = Self.varyNames(response)
        freshnessLifetime = Self.freshnessLifetime(of: response, control: control, received: received)
        initialAge = Self.initialAge(of: response, requested: self.requested, received: received)
        alwaysRevalidates = control.has("no-cache")
    }

    /// An answer that is decoded once and never stored, as without a cache: reading its header
    /// fields for HTTP's rules would cost allocations on every request for nothing. It counts as
    /// stale and always revalidated, should it ever be looked at.
    init(unstored response: HTTPResponse, body: Data) {
        self.response = response
        self.body = body
        requested = .distantPast
        received = .distantPast
        variantFields = [:]
        varyNames = []
        freshnessLifetime = 0
        initialAge = 0
        alwaysRevalidates = true
    }

    private enum CodingKeys: String, CodingKey {
        case response, body, requested, received, variantFields
    }

    /// Reads an entry written by ``encode(to:)``.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            response: try container.decode(HTTPResponse.self, forKey: .response),
            body: try container.decode(Data.self, forKey: .body),
            requested: try container.decode(Date.self, forKey: .requested),
            received: try container.decode(Date.self, forKey: .received),
            variantFields: try container.decode(HTTPFields.self, forKey: .variantFields))
    }

    /// The bytes the entry takes, as a bounded cache counts them: body and header fields.
    var size: Int {
        response.headerFields.reduce(body.count) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
    }
}

/// FNV-1a over `text` in hex: a name that is the same in every launch, which `Hasher`'s is not.
func stableDigest(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return String(hash, radix: 16)
}
