public import Decoy
public import DecoyClient
public import Foundation
import HTTPTypes

/// Turns a HAR 1.2 file, as browsers' devtools, Charles, Proxyman, Fiddler and mitmproxy export
/// it, into stub files: the same format and redaction as `decoy record`, one file per request, a
/// repeated request's answers as a sequence, bodies under `__files/`.
///
/// Each entry's request is matched by its method, path and query (as recorded, `%2F` kept) and,
/// for a write, its body; its answer is the recorded status, header fields and body (base64
/// `content.encoding` decoded; none when the tool kept none). Header fields about the recorded
/// connection (`Content-Encoding` over text the tool already decoded, `Content-Length`,
/// `Transfer-Encoding`) are left out, and so is the body of a `304`, `204` or `1xx`, which HTTP
/// never sends.
///
/// ```swift
/// var importer = HARImport()
/// importer.resourceTypes = ["xhr", "fetch"]
/// let report = try importer.write(file: harURL, to: stubsURL)
/// ```
public struct HARImport: Sendable {
    /// How stubs tell apart requests to several hosts.
    public enum Hosts: String, Sendable, CaseIterable {
        /// A `Host` matcher on each stub, when the imported entries are for more than one host;
        /// none when they are all for one, so that the stubs answer whatever host a client names.
        case matcher
        /// A stubs folder per host, named after it (`api.example.com`, `localhost-8080`), without matchers.
        case folders
    }

    /// What an import did.
    public struct Report: Sendable, CustomStringConvertible {
        /// The mapping files written, in order.
        public var written: [URL] = []
        /// How many entries became stubs.
        public var imported = 0
        /// Entries left out on purpose, each named with why: a filter, no response (status 0).
        public var skipped: [String] = []
        /// Entries that cannot be read, each named with what is wrong; the others were imported.
        public var problems: [String] = []

        /// What was written, then each problem.
        public var description: String {
            ([
                "\(imported) entries imported into \(written.count) stubs; \(skipped.count) skipped, "
                    + "\(problems.count) with problems"
            ] + problems).joined(separator: "\n")
        }
    }

    /// The hosts whose entries are kept (`api.example.com`, or with its port); empty keeps every host.
    public var hosts: Set<String> = []
    /// A path prefix an entry's path must start with, such as `/api/`; `nil` keeps every path.
    public var pathPrefix: String?
    /// The resource types kept, as Chrome, Firefox and Safari note them (`_resourceType`:
    /// `xhr`, `fetch`, `document`, …); empty keeps every entry, with a type or without.
    public var resourceTypes: Set<String> = []
    /// How requests to several hosts are told apart.
    public var hostStubs = Hosts.matcher
    /// The secrets hidden, as when recording.
    public var redaction = LogRedaction()

    /// An importer that keeps every entry.
    public init() {}

    /// Imports the HAR file at `file` into the stubs folder `folder` (made when missing), under
    /// names no file there has yet.
    ///
    /// - Throws: when the file cannot be read, is not JSON, or is no HAR (no `log.entries`); or
    ///   when a stub file cannot be written. A bad entry is a problem of the report instead.
    public func write(file: URL, to folder: URL) throws(DecoyError) -> Report {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw Self.failure(file.path, "cannot be read: \(error.localizedDescription)")
        }
        return try write(data, named: file.path, to: folder)
    }

    /// Imports the HAR document `data`, named `name` in errors, into the stubs folder `folder`.
    public func write(_ data: Data, named name: String, to folder: URL) throws(DecoyError) -> Report {
        var report = Report()
        let entries = try HARDocument.entries(of: data, named: name, report: &report).filter { entry in
            let kept = isKept(entry)
            if !kept { report.skipped.append("\(entry.label): left out by a filter") }
            return kept
        }
        var recording = StubRecording(redaction: redaction, bodyFiles: .always)
        recording.repeats = .sequence
        recording.stableIDs = true
        let byHost = Dictionary(grouping: entries, by: \.host)
        let groups: [(folder: URL, entries: [HARDocument.Entry])] =
            hostStubs == .folders
            ? byHost.keys.sorted().map { host in
                (folder.appending(path: Self.folderName(host), directoryHint: .isDirectory), byHost[host] ?? [])
            } : [(folder, entries)]
        recording.matchesHost = hostStubs == .matcher && byHost.count > 1
        for group in groups {
            report.written += try recording.write(
                recording.mappings(from: group.entries.map(\.proxied)), to: group.folder, naming: .free)
        }
        report.imported = entries.count
        return report
    }

    private func isKept(_ entry: HARDocument.Entry) -> Bool {
        (hosts.isEmpty || hosts.contains(entry.host) || hosts.contains(entry.hostName))
            && (pathPrefix.map { entry.proxied.request.path.hasPrefix($0) } ?? true)
            && (resourceTypes.isEmpty || entry.resourceType.map(resourceTypes.contains) == true)
    }

    /// `localhost-8080` for `localhost:8080`: a folder name on every system.
    static func folderName(_ host: String) -> String {
        String(host.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "-" })
    }

    static func failure(_ name: String, _ reason: String) -> DecoyError {
        DecoyError.invalidStubFiles([StubFileDiagnostic(file: name, message: reason)])
    }
}

/// What a HAR file holds, read as leniently as its producers write it.
package enum HARDocument {
    /// An entry read into the exchange a recording is made of.
    struct Entry {
        /// `entry 3 (GET https://api.example.com/users)`, as reports name it.
        let label: String
        /// The URL's host, with its port when it has one.
        let host: String
        /// The URL's host alone.
        let hostName: String
        let resourceType: String?
        let proxied: StubRecording.Proxied
    }

    /// Fields of a recorded answer that described its connection or its encoding on the wire,
    /// which the text in the file no longer has.
    static let droppedResponseFields: Set<String> = [
        "content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive",
    ]

    static func entries(of data: Data, named name: String, report: inout HARImport.Report)
        throws(DecoyError) -> [Entry]
    {
        // Fiddler writes a byte-order mark, which JSON does not allow.
        let text = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
        guard let json = try? JSONSerialization.jsonObject(with: Data(text)) else {
            throw HARImport.failure(name, "is not JSON, so not a HAR file")
        }
        guard let log = (json as? [String: Any])?["log"] as? [String: Any],
            let entries = log["entries"] as? [Any]
        else {
            throw HARImport.failure(name, "is not a HAR file: it has no log.entries")
        }
        var read: [Entry] = []
        for (index, value) in entries.enumerated() {
            let label = label(of: value, at: index + 1)
            switch entry(value, label: label) {
            case .success(let entry?): read.append(entry)
            case .success(nil): report.skipped.append("\(label): no response (status 0), as for a failed request")
            case .failure(let problem): report.problems.append("\(name), \(label): \(problem.reason)")
            }
        }
        return read
    }

    struct Problem: Error {
        let reason: String
    }

    static func label(of value: Any, at number: Int) -> String {
        let request = (value as? [String: Any])?["request"] as? [String: Any]
        let method = request?["method"] as? String ?? "?"
        let url = request?["url"] as? String ?? "?"
        return "entry \(number) (\(method) \(url))"
    }

    /// The entry, `nil` when the request got no response (status 0), or what is wrong with it.
    static func entry(_ value: Any, label: String) -> Result<Entry?, Problem> {
        guard let entry = value as? [String: Any], let request = entry["request"] as? [String: Any] else {
            return .failure(Problem(reason: "has no request"))
        }
        guard let response = entry["response"] as? [String: Any] else {
            return .failure(Problem(reason: "has no response"))
        }
        guard let method = (request["method"] as? String).flatMap({ HTTPRequest.Method($0.uppercased()) }) else {
            return .failure(Problem(reason: "has no method"))
        }
        guard let url = (request["url"] as? String).flatMap({ URLComponents(string: $0) }), let hostName = url.host,
            !hostName.isEmpty
        else {
            return .failure(Problem(reason: "has no absolute URL"))
        }
        guard let status = integer(response["status"]) else {
            return .failure(Problem(reason: "its response has no status"))
        }
        if status == 0 { return .success(nil) }
        guard (100...599).contains(status) else {
            return .failure(Problem(reason: "its status \(status) is not from 100 to 599"))
        }
        let host = url.port.map { "\(hostName):\($0)" } ?? hostName
        let path = url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath
        let target = url.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
        var requestFields = HTTPFields()
        requestFields[HTTPField.Name("Host")!] = host
        let stubRequest = StubRequest(
            method: method, target: target, headerFields: requestFields, body: requestBody(request["postData"]))

        var fields = HTTPFields()
        for (name, value) in headerFields(response["headers"])
        where !droppedResponseFields.contains(name.lowercased()) && !name.hasPrefix(":") {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        let sendsBody = status >= 200 && status != 204 && status != 304
        let body: Data
        switch responseBody(response["content"]) {
        case .success(let data): body = sendsBody ? data : Data()
        case .failure(let problem): return .failure(problem)
        }
        let stubResponse = StubResponse(status: HTTPResponse.Status(code: status), headerFields: fields, body: body)
        let resourceType = entry["_resourceType"] as? String
        return .success(
            Entry(
                label: label, host: host, hostName: hostName, resourceType: resourceType,
                proxied: StubRecording.Proxied(request: stubRequest, response: stubResponse)))
    }

    /// The body text, base64-decoded when `encoding` says so; empty when the tool kept none.
    static func responseBody(_ content: Any?) -> Result<Data, Problem> {
        guard let content = content as? [String: Any], let text = content["text"] as? String else {
            return .success(Data())
        }
        guard (content["encoding"] as? String)?.lowercased() == "base64" else { return .success(Data(text.utf8)) }
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
            return .failure(Problem(reason: "its response's content.text is not base64, as its encoding says"))
        }
        return .success(data)
    }

    /// `postData.text`, or its `params` as a form when it has no text.
    package static func requestBody(_ postData: Any?) -> Data {
        guard let postData = postData as? [String: Any] else { return Data() }
        if let text = postData["text"] as? String, !text.isEmpty { return Data(text.utf8) }
        guard let params = postData["params"] as? [[String: Any]], !params.isEmpty else { return Data() }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+")
        let pairs = params.map { param in
            [param["name"], param["value"]].map { value in
                ((value as? String) ?? "").addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
            }.joined(separator: "=")
        }
        return Data(pairs.joined(separator: "&").utf8)
    }

    /// The header fields in order, a value written as a list (Polly.JS) giving a field per element.
    static func headerFields(_ headers: Any?) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        for header in headers as? [[String: Any]] ?? [] {
            guard let name = header["name"] as? String else { continue }
            switch header["value"] {
            case let value as String: fields.append((name, value))
            case let values as [Any]: fields += values.compactMap { $0 as? String }.map { (name, $0) }
            case let value?: fields.append((name, "\(value)"))
            case nil: break
            }
        }
        return fields
    }

    /// A number written as a number or as text.
    static func integer(_ value: Any?) -> Int? {
        switch value {
        case let number as NSNumber: number.intValue
        case let text as String: Int(text)
        default: nil
        }
    }
}
