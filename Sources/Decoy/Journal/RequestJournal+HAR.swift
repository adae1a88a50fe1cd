import DecoyClient
public import Foundation
import HTTPTypes

extension RequestJournal {
    /// The kept entries, oldest first, as a HAR 1.2 file, which browsers' devtools, Proxyman and
    /// Charles open: a failing test's traffic, seen with the tools the team already has.
    ///
    /// Each entry's time is when the request arrived, its `wait` the delay the engine held the
    /// answer for, and its `comment` the stub that answered (its name, or its route), or
    /// `unmatched`. A fault has status `0` and the fault in `_error`, as devtools write a failed
    /// request. A request without a `Host` field is written as sent to `localhost`.
    ///
    /// ```swift
    /// try registry.journal.har().write(to: URL(filePath: "failing-test.har"))
    /// ```
    public func har() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Plain strings, numbers and lists of them always encode.
        return (try? encoder.encode(HARFile(entries: entries.map(HARFile.Entry.init)))) ?? Data()
    }
}

/// HAR 1.2's fields, as much of them as a journal fills.
struct HARFile: Encodable {
    struct Log: Encodable {
        let version = "1.2"
        let creator = Creator()
        let entries: [Entry]
    }

    struct Creator: Encodable {
        let name = "Decoy"
        let version = decoyVersion
    }

    struct Pair: Encodable {
        let name: String
        let value: String
    }

    struct Entry: Encodable {
        let startedDateTime: String
        let time: Double
        let request: Request
        let response: Response
        let cache: [String: String] = [:]
        let timings: Timings
        let comment: String
        /// Devtools' own field for why a request failed.
        let error: String?

        enum CodingKeys: String, CodingKey {
            case startedDateTime, time, request, response, cache, timings, comment
            case error = "_error"
        }

        init(_ entry: JournalEntry) {
            startedDateTime = HARFile.date(entry.date)
            time = HARFile.milliseconds(entry.delay)
            timings = Timings(wait: time)
            request = Request(entry.request)
            response = Response(entry.response, fault: entry.fault)
            error = entry.fault.map { "\($0)" }
            comment =
                entry.response.headerFields[.matchedStubName]
                ?? entry.route.map { "matched \($0.description)" } ?? "unmatched"
        }
    }

    struct Request: Encodable {
        let method: String
        let url: String
        let httpVersion = "HTTP/1.1"
        let cookies: [Pair] = []
        let headers: [Pair]
        let queryString: [Pair]
        let postData: PostData?
        let headersSize = -1
        let bodySize: Int

        init(_ request: StubRequest) {
            method = request.method.rawValue
            let host = request.headerFields[HTTPField.Name("Host")!] ?? "localhost"
            let target = HARFile.uriEscaped(request.target)
            url = "http://\(host)\(target.hasPrefix("/") ? "" : "/")\(target)"
            headers = request.headerFields.map { Pair(name: $0.name.rawName, value: $0.value) }
            queryString = request.queryItems.map { Pair(name: $0.name, value: $0.value ?? "") }
            postData =
                request.body.isEmpty
                ? nil
                : PostData(
                    mimeType: request.headerFields[.contentType] ?? "",
                    text: String(decoding: request.body, as: UTF8.self))
            bodySize = request.body.count
        }
    }

    struct PostData: Encodable {
        let mimeType: String
        let text: String
    }

    struct Response: Encodable {
        let status: Int
        let statusText: String
        let httpVersion = "HTTP/1.1"
        let cookies: [Pair] = []
        let headers: [Pair]
        let content: Content
        let redirectURL: String
        let headersSize = -1
        let bodySize: Int

        init(_ response: StubResponse, fault: Fault?) {
            let answered = fault?.isAnsweredOverHTTP ?? true
            status = answered ? response.status.code : 0
            statusText = answered ? response.status.reasonPhrase : ""
            headers = answered ? response.headerFields.map { Pair(name: $0.name.rawName, value: $0.value) } : []
            let body = answered ? response.body : Data()
            content = Content(body, mimeType: response.headerFields[.contentType] ?? "")
            redirectURL = response.headerFields[.location] ?? ""
            bodySize = answered ? body.count : -1
        }
    }

    struct Content: Encodable {
        let size: Int
        let mimeType: String
        let text: String?
        let encoding: String?

        init(_ body: Data, mimeType: String) {
            size = body.count
            self.mimeType = mimeType
            if body.isEmpty {
                (text, encoding) = (nil, nil)
            } else if let text = String(data: body, encoding: .utf8) {
                (self.text, encoding) = (text, nil)
            } else {
                (text, encoding) = (body.base64EncodedString(), "base64")
            }
        }
    }

    struct Timings: Encodable {
        let blocked = -1
        let dns = -1
        let connect = -1
        let send = 0
        let wait: Double
        let receive = 0
        let ssl = -1
    }

    let log: Log

    init(entries: [Entry]) {
        log = Log(entries: entries)
    }

    /// `target` as a URI may hold it: what a client sent unescaped that a URI may not hold (`{`, `"`,
    /// `|`, a space, a lone `%`, any non-ASCII byte) percent-encoded, as a browser sends it, and the
    /// rest as it came. HAR 1.2 wants a URI, and readers, Decoy's import among them, refuse an entry
    /// whose `url` is not one.
    static func uriEscaped(_ target: String) -> String {
        // RFC 3986's path and query characters: unreserved, sub-delims, ":", "@", "/" and "?".
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?".utf8)
        let bytes = Array(target.utf8)
        var escaped = ""
        for (index, byte) in bytes.enumerated() {
            let isEscape =
                byte == UInt8(ascii: "%") && index + 2 < bytes.count
                && bytes[(index + 1)...(index + 2)].allSatisfy { Character(Unicode.Scalar($0)).isHexDigit }
            if allowed.contains(byte) || isEscape {
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                escaped += String(format: "%%%02X", byte)
            }
        }
        return escaped
    }

    /// `2026-11-27T18:30:00.123Z`: ISO 8601 with milliseconds, as HAR wants.
    static func date(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
