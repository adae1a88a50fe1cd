package import Foundation
import HTTPTypes

/// The `Cache-Control` directives of a message (RFC 9111, 5.2), names lowercased and values unquoted.
///
/// A qualified `no-cache="field"` counts as a plain `no-cache`, which is stricter, as the RFC allows.
struct CacheControl {
    private var directives: [Substring: Substring] = [:]

    init(_ fields: HTTPFields) {
        for value in fields[values: .cacheControl] {
            for directive in value.split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1)
                guard let name = parts.first?.trimmingCharacters(in: .whitespaces).lowercased(), !name.isEmpty else {
                    continue
                }
                let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
                directives[Substring(name)] = Substring(
                    argument.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
            }
        }
    }

    func has(_ name: Substring) -> Bool { directives[name] != nil }

    /// The delta-seconds of `name`; an invalid value counts as 0, which errs towards the network.
    func seconds(_ name: Substring) -> TimeInterval? {
        directives[name].map { TimeInterval(Int($0) ?? 0) }
    }
}

/// RFC 9111 for a private cache: what may be stored, how long it stays fresh, how old it is,
/// which request it answers and how it is revalidated.
extension CachedResponse {
    /// Statuses a cache may keep without explicit freshness (RFC 9110, 15.1), among those a
    /// client accepts.
    private static let cacheableByDefault: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Whether `response` to `request` may be kept at all: never with `no-store` on either side
    /// or with `Vary: *`, which no later request can match.
    static func mayStore(_ response: HTTPResponse, for request: HTTPRequest) -> Bool {
        !CacheControl(request.headerFields).has("no-store") && !CacheControl(response.headerFields).has("no-store")
            && !response.headerFields[values: .vary].contains { $0.contains("*") }
    }

    /// Whether HTTP's rules (3) store `response` to `request`: a read, whose status is cacheable by
    /// default or whose freshness is explicit.
    static func httpStores(_ response: HTTPResponse, for request: HTTPRequest) -> Bool {
        let control = CacheControl(response.headerFields)
        return (request.method == .get || request.method == .head) && mayStore(response, for: request)
            && (cacheableByDefault.contains(response.status.code) || control.has("max-age")
                || control.has("public") || control.has("private") || response.headerFields[.expires] != nil)
    }

    /// The request's values of the fields the response's `Vary` names.
    static func variantFields(of request: HTTPRequest, for response: HTTPResponse) -> HTTPFields {
        var fields = HTTPFields()
        for name in varyNames(response) {
            for value in request.headerFields[values: name] { fields.append(HTTPField(name: name, value: value)) }
        }
        return fields
    }

    static func varyNames(_ response: HTTPResponse) -> [HTTPField.Name] {
        response.headerFields[values: .vary].flatMap { $0.split(separator: ",") }.compactMap {
            HTTPField.Name($0.trimmingCharacters(in: .whitespaces))
        }
    }

    /// Whether this entry answers `request` (4.1): the same values of every field `Vary` names.
    func matches(_ request: HTTPRequest) -> Bool {
        varyNames.allSatisfy { request.headerFields[values: $0] == variantFields[values: $0] }
    }

    /// How long `response` stays fresh (4.2.1): `max-age` (`s-maxage` is for shared caches),
    /// else `Expires` minus `Date`, else, for a status cacheable by default, 10% of the time since
    /// `Last-Modified` (4.2.2); otherwise none.
    static func freshnessLifetime(of response: HTTPResponse, control: CacheControl, received: Date) -> TimeInterval {
        if let maxAge = control.seconds("max-age") { return maxAge }
        let date = originDate(of: response, received: received)
        if let expires = response.headerFields[.expires] {
            // An invalid date, such as "0", means already expired (5.3).
            return HTTPDate.parse(expires).map { $0.timeIntervalSince(date) } ?? 0
        }
        guard cacheableByDefault.contains(response.status.code),
            let modified = response.headerFields[.lastModified].flatMap(HTTPDate.parse)
        else { return 0 }
        return max(0, date.timeIntervalSince(modified) / 10)
    }

    /// The origin's `Date`, or the arrival when it has none (or an unreadable one).
    private static func originDate(of response: HTTPResponse, received: Date) -> Date {
        response.headerFields[.date].flatMap(HTTPDate.parse) ?? received
    }

    /// The response's age on arrival (4.2.3): the larger of the age its `Date` implies and its
    /// `Age` plus the request's round trip.
    static func initialAge(of response: HTTPResponse, requested: Date, received: Date) -> TimeInterval {
        let apparent = max(0, received.timeIntervalSince(originDate(of: response, received: received)))
        let ageValue = response.headerFields[.age].flatMap { TimeInterval($0) } ?? 0
        return max(apparent, ageValue + received.timeIntervalSince(requested))
    }

    /// How long the response stays fresh from its arrival on, at most a year: beyond that a
    /// cache has no use for the difference, and a `Duration` made from any `max-age` stays small.
    var remainingFreshness: Duration {
        .seconds(min(max(0, freshnessLifetime - initialAge), 365 * 24 * 3600))
    }

    /// The response's age at `now`: its age on arrival plus the time it has been kept.
    func age(at now: Date) -> TimeInterval {
        initialAge + now.timeIntervalSince(received)
    }

    /// Whether HTTP's rules let this entry answer `request` at `now` without asking the origin:
    /// fresh, and `no-cache` on neither side (nor a request's `max-age=0`).
    func isServable(to request: HTTPRequest, at now: Date) -> Bool {
        guard !alwaysRevalidates else { return false }
        // Most requests carry no Cache-Control: they are not parsed.
        guard request.headerFields[.cacheControl] != nil else { return age(at: now) < freshnessLifetime }
        let asked = CacheControl(request.headerFields)
        let limit = asked.seconds("max-age").map { min($0, freshnessLifetime) } ?? freshnessLifetime
        return !asked.has("no-cache") && age(at: now) < limit
    }

    /// `request` made conditional on this entry's validators (4.3.1): `If-None-Match` with its
    /// `ETag`, `If-Modified-Since` with its `Last-Modified`; `nil` when it has neither.
    func conditional(_ request: HTTPRequest) -> HTTPRequest? {
        let etag = response.headerFields[.eTag]
        let modified = response.headerFields[.lastModified]
        guard etag != nil || modified != nil else { return nil }
        var request = request
        if let etag { request.headerFields[.ifNoneMatch] = etag }
        if let modified { request.headerFields[.ifModifiedSince] = modified }
        return request
    }

    /// This entry after a `304 Not Modified` (4.3.4): the 304's header fields replace the stored
    /// ones of the same name, and its age starts again from this exchange.
    func refreshed(by notModified: HTTPResponse, requested: Date, received: Date) -> CachedResponse {
        var fields = response.headerFields
        for name in Set(notModified.headerFields.map(\.name)) where name != .contentLength {
            fields[values: name] = notModified.headerFields[values: name]
        }
        var head = response
        head.headerFields = fields
        return CachedResponse(
            response: head, body: body, requested: requested, received: received, variantFields: variantFields)
    }
}

/// HTTP dates (RFC 9110, 5.6.7) in their three forms: IMF-fixdate, RFC 850 and asctime.
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `date` in the form a sender uses, IMF-fixdate (`Fri, 27 Nov 2026 12:54:37 GMT`), to the second below.
    package static func format(_ date: Date) -> String {
        // A formatter is not Sendable, and one made per call costs microseconds, not worth a lock.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    }

    /// The date `text` names, or `nil` when it is not an HTTP date.
    package static func parse(_ text: String) -> Date? {
        let tokens = text.split { " ,-:".contains($0) }
        guard let monthIndex = tokens.firstIndex(where: { months.contains($0.lowercased()) }),
            let month = months.firstIndex(of: tokens[monthIndex].lowercased())
        else { return nil }
        let numbers = tokens.compactMap { Int($0) }
        guard numbers.count == 5 else { return nil }
        // asctime puts the month second and the year last; the other forms, the day first and the year next.
        let (day, year, hour, minute, second) =
            monthIndex == 1
            ? (numbers[0], numbers[4], numbers[1], numbers[2], numbers[3])
            : (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4])
        // RFC 850's two-digit years: the RFC asks for the most recent past year ending so.
        let fullYear = year >= 100 ? year : year + (year < 70 ? 2000 : 1900)
        guard (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        let days = daysSinceEpoch(year: fullYear, month: month + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(((days * 24 + hour) * 60 + minute) * 60 + second))
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
