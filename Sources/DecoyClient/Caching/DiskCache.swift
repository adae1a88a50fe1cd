import Foundation

/// A ``ResponseCache`` of files in a folder, one per entry, kept across launches.
///
/// Entries expire by wall-clock time, because they outlive the process and a monotonic clock's
/// instants mean nothing in the next one.
public struct DiskCache: ResponseCache {
    /// The folder the entries are written to; created when the first entry is stored.
    public let folder: URL
    private let expiry: Duration?
    private let now: @Sendable () -> Date

    /// Creates a cache in `folder` whose entries live `expiry` (forever when `nil`), measured by `now`.
    public init(folder: URL, expiry: Duration? = nil, now: @escaping @Sendable () -> Date = Date.init) {
        self.folder = folder
        self.expiry = expiry
        self.now = now
    }

    private struct Entry: Codable {
        let key: CacheKey
        let stored: Date
        let response: CachedResponse
    }

    /// The entry for `key` unless it is missing, unreadable or expired.
    public func response(for key: CacheKey) async -> CachedResponse? {
        guard let data = await Self.onFileQueue({ [file = file(for: key)] in try? Data(contentsOf: file) }),
            let entry = try? JSONDecoder().decode(Entry.self, from: data),
            entry.key == key // file names are hashes, which may collide
        else { return nil }
        if let expiry, now().timeIntervalSince(entry.stored) >= TimeInterval(expiry / .milliseconds(1)) / 1_000 {
            return nil
        }
        return entry.response
    }

    /// Writes the entry atomically, so that a reader never sees half of it.
    public func store(_ response: CachedResponse, for key: CacheKey) async {
        guard let data = try? JSONEncoder().encode(Entry(key: key, stored: now(), response: response)) else { return }
        await Self.onFileQueue { [folder, file = file(for: key)] in
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? data.write(to: file, options: .atomic)
        }
    }

    /// Deletes the entry's file.
    public func removeResponse(for key: CacheKey) async {
        await Self.onFileQueue { [file = file(for: key)] in try? FileManager.default.removeItem(at: file) }
    }

    /// Deletes the folder.
    public func removeAll() async {
        await Self.onFileQueue { [folder] in try? FileManager.default.removeItem(at: folder) }
    }

    /// Runs blocking file work off Swift's task threads, which are as many as the cores: a task
    /// waiting on a disk there holds back every other task, a mock server's answers included.
    private static func onFileQueue<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            fileQueue.async { continuation.resume(returning: work()) }
        }
    }

    private static let fileQueue = DispatchQueue(label: "decoy.disk-cache", attributes: .concurrent)

    /// A stable name for the key: FNV-1a over its method and URL, since `Hasher` changes per launch.
    private func file(for key: CacheKey) -> URL {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(key.method) \(key.url)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return folder.appending(path: String(hash, radix: 16) + ".json")
    }
}
