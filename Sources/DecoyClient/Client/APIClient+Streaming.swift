public import Foundation
public import HTTPTypes

extension APIClient {
    /// Sends `resource` and returns the response head as soon as it has arrived, with the body to
    /// read as it comes, chunk by chunk, for bodies too large to hold or to show as they arrive.
    ///
    /// It goes through the interceptors, retries (only before the body's first chunk), timeout
    /// (the head's) and logging as any request, never through the cache. An unacceptable status
    /// throws ``APIError/unacceptableStatus(_:)`` with the body read whole.
    ///
    /// ```swift
    /// let (head, body) = try await client.bytes(for: Resource<Void>.get("/logs/today"))
    /// for try await chunk in body { print(head.status, chunk.count) }
    /// ```
    public func bytes<Value>(for resource: Resource<Value>) async throws(APIError) -> (HTTPResponse, ResponseBody) {
        let (request, body) = try makeRequest(for: resource)
        return try await stream(request, body: body.map { UploadBody(data: $0) }, options: resource.options)
    }

    /// Sends `resource` and writes its body to `file` as it arrives, never holding it whole; the
    /// transfer's ``Transfer/progress`` tells how much has been written, and its value is the
    /// response head. A file already there is replaced; a transfer that fails or is cancelled
    /// leaves no file.
    ///
    /// ```swift
    /// let download = client.download(Resource<Void>.get("/exports/2025.csv"), to: destination)
    /// for await progress in download.progress { print(progress.completed, progress.expected ?? -1) }
    /// let head = try await download.value
    /// ```
    public func download<Value>(_ resource: Resource<Value>, to file: URL) -> Transfer<HTTPResponse> {
        Transfer { report in
            let (head, body) = try await self.bytes(for: resource)
            try await Self.write(body, to: file, expected: head.expectedLength, report: report)
            return head
        }
    }

    /// Sends `resource` with the contents of `file` as its body, read as it goes up (by a
    /// transport that streams), and decodes the response; the transfer's ``Transfer/progress``
    /// tells how much has been sent. The resource's own body, if any, is not sent.
    ///
    /// ```swift
    /// let upload = client.upload(Resource<Receipt>.post("/videos"), fromFile: movie, contentType: "video/mp4")
    /// for await progress in upload.progress { print(progress.completed, "of", progress.expected ?? -1) }
    /// let receipt = try await upload.value.value
    /// ```
    public func upload<Value: Sendable>(_ resource: Resource<Value>, fromFile file: URL, contentType: String? = nil)
        -> Transfer<Response<Value>>
    {
        Transfer { report in
            var (request, _) = try self.makeRequest(for: resource)
            if let contentType { request.headerFields[.contentType] = contentType }
            let expected = UploadBody(file: file).length
            let reported = Mutex<Int64>(0)
            let progress: @Sendable (Int64) -> Void = { completed in
                // Only forward: a retry sends the file again, and a head means it has all gone up,
                // which transports that do not report what they send never say otherwise.
                let advanced = reported.withLock { last in
                    guard completed > last else { return false }
                    last = completed
                    return true
                }
                if advanced { report(TransferProgress(completed: completed, expected: expected)) }
            }
            report(TransferProgress(completed: 0, expected: expected))
            let (head, body) = try await self.stream(
                request, body: UploadBody(file: file, sent: progress), options: resource.options)
            if let expected { progress(expected) }
            let data: Data
            do { data = try await body.collected() } catch {
                throw self.report(APIError(streaming: error), for: request)
            }
            return try self.decoded(
                CachedResponse(unstored: head, body: data), from: .network, of: request,
                by: { data, response in try self.decodeBody(data, response, for: resource) })
        }
    }

    /// Sends `form` as a `multipart/form-data` body with `resource`, its files read as they go up,
    /// never whole: the form is written to a temporary file, uploaded from it, then removed.
    public func upload<Value: Sendable>(_ resource: Resource<Value>, form: MultipartForm) -> Transfer<Response<Value>> {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decoy-form-\(UUID().uuidString)")
        return Transfer { report in
            defer { try? FileManager.default.removeItem(at: file) }
            do {
                try form.write(to: file)
            } catch {
                throw APIError.invalidRequest(reason: "the form does not encode: \(error)")
            }
            let upload = self.upload(resource, fromFile: file, contentType: form.contentType)
            await withTaskCancellationHandler {
                for await progress in upload.progress { report(progress) }
            } onCancel: {
                upload.cancel()
            }
            return try await upload.value
        }
    }

    /// The streamed exchange of a built request, its status checked; failures are reported.
    func stream(_ request: HTTPRequest, body: UploadBody?, options: RequestOptions) async throws(APIError) -> (
        HTTPResponse, ResponseBody
    ) {
        do throws(APIError) {
            let (head, received) = try await pipeline.stream(request, body: body, options: options)
            let body = received.expecting(lengthOf: head, answering: request.method)
            guard !configuration.acceptableStatuses.contains(head.status.code) else { return (head, body) }
            let data: Data
            do { data = try await body.collected() } catch { throw APIError(streaming: error) }
            try checkStatus(head, body: data)
            return (head, body)
        } catch {
            throw report(error, for: request)
        }
    }

    /// Writes `body` to `file` chunk by chunk, reporting after each; on failure removes the file.
    private static func write(
        _ body: ResponseBody, to file: URL, expected: Int64?, report: (TransferProgress) -> Void
    ) async throws(APIError) {
        do {
            report(TransferProgress(completed: 0, expected: expected))
            try? FileManager.default.removeItem(at: file)
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: file.path])
            }
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            var completed: Int64 = 0
            for try await chunk in body {
                try handle.write(contentsOf: chunk)
                completed += Int64(chunk.count)
                report(TransferProgress(completed: completed, expected: expected))
            }
        } catch {
            body.cancel()
            try? FileManager.default.removeItem(at: file)
            throw APIError(streaming: error)
        }
    }
}

extension HTTPResponse {
    /// The body's length the head announces in `Content-Length`; `nil` when it announces none.
    var expectedLength: Int64? {
        headerFields[.contentLength].flatMap { Int64($0) }
    }
}

extension APIError {
    /// A failure while a body streams: an ``APIError`` as it is, cancellation and any transport
    /// error classified as a transport failure.
    init(streaming error: any Error) {
        if let error = error as? APIError {
            self = error
        } else {
            self.init(transporting: error)
        }
    }
}
