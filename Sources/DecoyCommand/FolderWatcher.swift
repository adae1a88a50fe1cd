import Foundation

/// Calls `onChange` when any file under a folder is added, removed or modified.
///
/// It compares a fingerprint (paths, sizes, modification times) twice a second: portable, and
/// cheap for a folder of stub files.
final class FolderWatcher {
    private let timer: any DispatchSourceTimer

    init(_ folder: URL, interval: DispatchTimeInterval = .milliseconds(500), onChange: @escaping @Sendable () -> Void) {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "decoy.watch"))
        nonisolated(unsafe) var last = Self.fingerprint(of: folder)
        timer.setEventHandler {
            let current = Self.fingerprint(of: folder)
            guard current != last else { return }
            last = current
            onChange()
        }
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.resume()
    }

    deinit { timer.cancel() }

    private static func fingerprint(of folder: URL) -> [String: [Double]] {
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey]
        var prints: [String: [Double]] = [:]
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys)
        while let file = files?.nextObject() as? URL {
            let values = try? file.resourceValues(forKeys: Set(keys))
            prints[file.path] = [
                values?.contentModificationDate?.timeIntervalSince1970 ?? 0, Double(values?.fileSize ?? 0),
            ]
        }
        return prints
    }
}
