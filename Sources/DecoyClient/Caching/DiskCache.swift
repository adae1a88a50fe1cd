import Foundation

/// The storage of ``ResponseCache/disk(folder:expiry:capacity:now:)``: a file per entry, kept
/// across launches, bounded in bytes: when the files take more than the capacity, the least
/// recently used go first.
///
/// Entries expire by wall-clock time, because they outlive the process and a monotonic clock's
/// instants mean nothing in the next one. A file's modification date is its last use.
struct DiskCache: CacheStorage {
    /// The folder the entries are written to; created when the first entry is stored.
    let folder: URL
    /// The most bytes the entries' files may take together.
    let capacity: Int
    private let expiry: Duration?
    private let now: @Sendable () -> Date

    /// Creates a cache in `folder` of at most `capacity` bytes (256 MiB by default) whose entries
    /// live `expiry` (forever when `nil`), measured by `now`.
    init(
        folder: URL, expiry: Duration? = nil, capacity: Int = 256 * 1024 * 1024,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        precondition(capacity >= 0, "a cache's capacity is a number of bytes")
        self.folder = folder
        self.capacity = capacity
        self.expiry = expiry
        self.now = now
    }

    private struct Entry: Codable {
        let key: CacheKey
        let stored: Date
        let response: CachedResponse
    }

    /// The entry for `key` unless it is missing, unreadable or expired; it becomes the most recently used.
    func response(for key: CacheKey) async -> CachedResponse? {
        let used = now()
        guard
            let data = await Self.onFileQueue({ [file = file(for: key)] in
                let data = try? Data(contentsOf: file)
                if data != nil { Self.markUsed(file, at: used) }
                return data
            }),
            let entry = try? JSONDecoder().decode(Entry.self, from: data),
            entry.key == key // file names are hashes, which may collide
        else { return nil }
        if let expiry, now().timeIntervalSince(entry.stored) >= TimeInterval(expiry / .milliseconds(1)) / 1_000 {
            return nil
        }
        return entry.response
    }

    /// Writes the entry atomically, so that a reader never sees half of it, then deletes the least
    /// recently used files until the rest fit the capacity.
    func store(_ response: CachedResponse, for key: CacheKey) async {
        let stored = now()
        guard let data = try? JSONEncoder().encode(Entry(key: key, stored: stored, response: response)) else { return }
        await Self.onFileQueue { [folder, capacity, file = file(for: key)] in
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            guard (try? data.write(to: file, options: .atomic)) != nil else { return }
            Self.markUsed(file, at: stored)
            Self.evict(in: folder, downTo: capacity)
        }
    }

    /// Records a use of `file` as its modification date.
    private static func markUsed(_ file: URL, at date: Date) {
        try? FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: file.path)
    }

    /// Deletes the files of `folder` least recently used first until the rest take at most `capacity` bytes.
    private static func evict(in folder: URL, downTo capacity: Int) {
        let keys: Set<URLResourceKey> = [.fileSizeKey, .contentModificationDateKey]
        let files =
            (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: Array(keys))) ?? []
        let entries = files.compactMap { file -> (file: URL, size: Int, used: Date)? in
            guard let values = try? file.resourceValues(forKeys: keys) else { return nil }
            return (file, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast)
        }
        var bytes = entries.reduce(0) { $0 + $1.size }
        for entry in entries.sorted(by: { $0.used < $1.used }) where bytes > capacity {
            try? FileManager.default.removeItem(at: entry.file)
            bytes -= entry.size
        }
    }

    /// The bytes the entries' files take now.
    func byteCount() async -> Int {
        await Self.onFileQueue { [folder] in
            let files =
                (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.fileSizeKey]))
                ?? []
            return files.reduce(0) { $0 + ((try? $1.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) }
        }
    }

    /// Deletes the entry's file.
    func removeResponse(for key: CacheKey) async {
        await Self.onFileQueue { [file = file(for: key)] in try? FileManager.default.removeItem(at: file) }
    }

    /// Deletes the folder.
    func removeAll() async {
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

    /// A stable name for the key: a digest of its method, URL and credential.
    private func file(for key: CacheKey) -> URL {
        folder.appending(path: stableDigest("\(key.method) \(key.url) \(key.credential ?? "")") + ".json")
    }
}
