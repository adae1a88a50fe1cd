public import Foundation

/// A request body that a transport may send in pieces: bytes in memory, or a file read as it
/// goes up, never whole, by a transport that streams (``URLSessionTransport``).
public struct UploadBody: Sendable {
    /// Where the bytes are.
    enum Source: Sendable {
        /// In memory.
        case data(Data)
        /// In a file.
        case file(URL)
    }

    /// Where the bytes are.
    let source: Source
    /// Told the total sent so far, each time more has gone up.
    private let sent: (@Sendable (Int64) -> Void)?

    /// A body of `data`; `sent` is told the total sent so far as the transport reports it.
    public init(data: Data, sent: (@Sendable (Int64) -> Void)? = nil) {
        self.init(.data(data), sent: sent)
    }

    /// A body read from `file`; `sent` is told the total sent so far as the transport reports it.
    public init(file: URL, sent: (@Sendable (Int64) -> Void)? = nil) {
        self.init(.file(file), sent: sent)
    }

    init(_ source: Source, sent: (@Sendable (Int64) -> Void)?) {
        self.source = source
        self.sent = sent
    }

    /// The number of bytes to send: the data's, or the file's size when it can be read.
    public var length: Int64? {
        switch source {
        case .data(let data):
            Int64(data.count)
        case .file(let url):
            (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
        }
    }

    /// All the bytes in memory, for transports that send a body whole (the file read at once).
    public func data() throws -> Data {
        switch source {
        case .data(let data): data
        case .file(let url): try Data(contentsOf: url)
        }
    }

    /// The bytes in order, in pieces of at most `size` bytes, each handed to `piece` as it is read:
    /// a file is read a piece at a time, never whole.
    package func forEachPiece(ofSize size: Int = 64 * 1024, _ piece: (Data) throws -> Void) throws {
        precondition(size > 0, "a piece holds at least a byte")
        switch source {
        case .data(let data):
            var start = data.startIndex
            while start < data.endIndex {
                let end = data.index(start, offsetBy: size, limitedBy: data.endIndex) ?? data.endIndex
                try piece(data[start..<end])
                start = end
            }
        case .file(let url):
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            while let data = try handle.read(upToCount: size), !data.isEmpty { try piece(data) }
        }
    }

    /// Reports that `total` bytes have been sent so far; transports call it as the body goes up.
    public func reportSent(_ total: Int64) {
        sent?(total)
    }
}
