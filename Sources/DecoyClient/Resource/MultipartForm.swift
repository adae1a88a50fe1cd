public import Foundation

/// A `multipart/form-data` body (RFC 7578): fields and files, each part with its own content type.
///
/// Send a small form in memory as a resource's body, or a large one with
/// ``APIClient/upload(_:form:)``, which reads its files as they go up:
///
/// ```swift
/// var form = MultipartForm()
/// form.append("Holiday", named: "title")
/// form.append(contentsOf: photo, named: "photo", filename: "beach.jpg", contentType: "image/jpeg")
/// let upload = client.upload(Resource<Receipt>.post("/albums/7/photos"), form: form)
/// ```
public struct MultipartForm: Sendable {
    /// The line between parts; it must occur in no part.
    public let boundary: String
    private var parts: [Part] = []

    private struct Part: Sendable {
        let name: String
        let filename: String?
        let contentType: String?
        let content: UploadBody.Source
    }

    /// An empty form; the default boundary is random, a fixed one makes the body reproducible.
    public init(boundary: String = "decoy-\(UUID().uuidString)") {
        self.boundary = boundary
    }

    /// The `Content-Type` to send the form with, its boundary included.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Adds a text field; without a content type, a receiver takes it as `text/plain`.
    public mutating func append(_ value: String, named name: String, contentType: String? = nil) {
        parts.append(Part(name: name, filename: nil, contentType: contentType, content: .data(Data(value.utf8))))
    }

    /// Adds bytes in memory, as a file when `filename` is given.
    public mutating func append(
        _ data: Data, named name: String, filename: String? = nil, contentType: String? = "application/octet-stream"
    ) {
        parts.append(Part(name: name, filename: filename, contentType: contentType, content: .data(data)))
    }

    /// Adds the contents of `file`, read only when the form is written; its name is the file's
    /// own unless `filename` says otherwise.
    public mutating func append(
        contentsOf file: URL, named name: String, filename: String? = nil,
        contentType: String = "application/octet-stream"
    ) {
        parts.append(
            Part(
                name: name, filename: filename ?? file.lastPathComponent, contentType: contentType,
                content: .file(file)))
    }

    /// The whole body in memory, for a small form sent as a resource's body:
    /// `.data(form.encoded(), contentType: form.contentType)`.
    public func encoded() throws -> Data {
        var data = Data()
        try write { data.append($0) }
        return data
    }

    /// Writes the body to `file`, each file part copied in blocks, never read whole.
    public func write(to file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: file.path])
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try write { try handle.write(contentsOf: $0) }
    }

    /// The size of a block copied from a file part.
    private static let blockSize = 64 * 1024

    private func write(_ out: (Data) throws -> Void) throws {
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
            if let filename = part.filename { head += "; filename=\"\(Self.quoted(filename))\"" }
            if let contentType = part.contentType { head += "\r\nContent-Type: \(contentType)" }
            try out(Data("\(head)\r\n\r\n".utf8))
            switch part.content {
            case .data(let data):
                try out(data)
            case .file(let url):
                let input = try FileHandle(forReadingFrom: url)
                defer { try? input.close() }
                while let block = try input.read(upToCount: Self.blockSize), !block.isEmpty { try out(block) }
            }
            try out(Data("\r\n".utf8))
        }
        try out(Data("--\(boundary)--\r\n".utf8))
    }

    /// A name or file name as it goes between quotes: quotes and line breaks percent-encoded, as
    /// browsers send them (HTML's form submission algorithm).
    private static func quoted(_ name: String) -> String {
        name.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
