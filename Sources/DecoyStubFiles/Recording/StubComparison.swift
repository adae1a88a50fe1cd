package import Decoy
import DecoyClient
import Foundation
package import HTTPTypes

/// Holds real responses against the stubs that stand for their requests: for each request a stub
/// of ``stubs`` matches, where the real response differs from the stub's in its status, the header
/// fields the stub sets, and its JSON structure. `decoy record --compare` runs it on live traffic.
///
/// Values the stub renders from a template, and values that are volatile (see
/// ``isVolatile(name:)`` and ``isVolatile(_:)``), are compared by type only; other values by
/// value. Arrays are compared item by item, and the items past the stub's last by type against
/// its first.
package final class StubComparison: Sendable {
    /// One way a real response differs from its stub.
    package struct Difference: Sendable, Hashable, Encodable, CustomStringConvertible {
        /// Where the stub is: `users.json:3`, or its route for a stub not loaded from a file.
        package let stub: String
        /// The first request it was seen on: `GET /users/7`.
        package let request: String
        /// Where, as a stub file writes the response: `/response/status`,
        /// `/response/headers/ETag`, `/response/jsonBody/owner/id`.
        package let pointer: String
        /// What differs, the real response first: `a string where the stub has a number`.
        package let message: String

        /// `users.json:3: GET /users/7: /response/jsonBody/id: a string where the stub has a number`.
        package var description: String { "\(stub): \(request): \(pointer): \(message)" }
    }

    /// A request that was not compared, with why.
    package struct Skipped: Sendable, Hashable, Encodable, CustomStringConvertible {
        /// The request: `GET /health`.
        package let request: String
        /// Why: no stub matches it, or its stub's answer is chosen by code or is a fault.
        package let reason: String

        package var description: String { "\(request): \(reason)" }
    }

    /// What a run compared and found.
    package struct Report: Sendable, Encodable, CustomStringConvertible {
        /// How many real responses were held against a stub.
        package var compared = 0
        /// Every difference, each once, in the order they were first seen.
        package var differences: [Difference] = []
        /// The requests not compared, each once.
        package var skipped: [Skipped] = []

        /// Whether some real response differs from its stub.
        package var hasDifferences: Bool { !differences.isEmpty }

        /// A line per difference, then per skipped request, then a summary.
        package var description: String {
            let stubs = Set(differences.map(\.stub)).count
            let summary =
                "\(compared) response\(compared == 1 ? "" : "s") compared: "
                + (differences.isEmpty
                    ? "no difference"
                    : "\(stubs == 1 ? "1 stub differs" : "\(stubs) stubs differ") (\(differences.count) difference"
                        + "\(differences.count == 1 ? "" : "s"))")
                + (skipped.isEmpty ? "" : ", \(skipped.count) request\(skipped.count == 1 ? "" : "s") not compared")
            return (differences.map { "differs: \($0)" } + skipped.map { "not compared: \($0)" } + [summary])
                .joined(separator: "\n")
        }
    }

    /// The stubs the real responses are held against.
    package let stubs: StubRegistry
    /// Each stub's place by its route's identity, made once.
    private let places: [ObjectIdentifier: String]
    private let found = Mutex(Found())

    private struct Found {
        var report = Report()
        var seen: Set<[String]> = []
    }

    /// A comparison against the stubs of `stubs`, a registry that serves nothing but is read.
    package init(stubs: StubRegistry) {
        self.stubs = stubs
        var places: [ObjectIdentifier: String] = [:]
        for mapping in stubs.mappings {
            if case .file(let loaded) = mapping.origin {
                places[mapping.route.identity] = "\(loaded.file):\(loaded.line)"
            }
        }
        self.places = places
    }

    /// What was compared so far.
    package var report: Report { found.withLock(\.report) }

    /// ``compare(_:to:)`` as a registry runs it on what its proxies bring back, so that each
    /// difference is also kept in the journal and warned of in the request log.
    package var proxiedResponseCheck: ProxiedResponseCheck {
        { [self] request, response in
            compare(response, to: request).map {
                ResponseDrift(against: $0.stub, message: $0.message, pointer: $0.pointer, documentPointer: nil)
            }
        }
    }

    /// How `response`, which the real server gave `request`, differs from the stub that matches
    /// `request`, added to ``report``; none when no stub matches or its answer cannot be compared.
    @discardableResult
    package func compare(_ response: StubResponse, to request: StubRequest) -> [Difference] {
        let name = "\(request.method) \(request.target)"
        guard case .matched(let match) = stubs.lookup(request) else {
            return skip(name, "no stub matches it")
        }
        let stub: StubResponse
        let templates: StubResponse?
        switch match.stub.resolve(for: request) {
        case .response(let answer):
            stub = answer
            templates = (match.stub as? TemplateStub)?.response
        case .deferred:
            return skip(name, "its stub's answer is chosen by code or proxied, so it is not compared")
        }
        if let fault = stub.fault { return skip(name, "its stub answers with a fault (\(fault))") }
        let place = match.route.flatMap { places[$0.identity] } ?? match.route.map { "\($0)" } ?? "a stub"
        let differences = Self.differences(of: response, from: stub, templates: templates).map {
            Difference(stub: place, request: name, pointer: $0.pointer, message: $0.message)
        }
        found.withLock { found in
            found.report.compared += 1
            for difference in differences
            where found.seen.insert([place, difference.pointer, difference.message])
                .inserted
            {
                found.report.differences.append(difference)
            }
        }
        return differences
    }

    private func skip(_ request: String, _ reason: String) -> [Difference] {
        found.withLock { found in
            if found.seen.insert([request, reason]).inserted {
                found.report.skipped.append(Skipped(request: request, reason: reason))
            }
        }
        return []
    }

    // MARK: Comparing one response

    /// Where and how `real` differs from `stub`; `templates`, for a templated stub, is its
    /// unrendered response, whose templated values are compared by type only.
    package static func differences(of real: StubResponse, from stub: StubResponse, templates: StubResponse? = nil)
        -> [(pointer: String, message: String)]
    {
        var found: [(pointer: String, message: String)] = []
        if real.status.code != stub.status.code {
            found.append(("/response/status", "\(real.status.code) where the stub answers \(stub.status.code)"))
        }
        // Decoy names the stub that answered in fields of its own, which no real server sends.
        let ownFields: Set<HTTPField.Name> = [.matchedStubID, .matchedStubName]
        for name in Set(stub.headerFields.map(\.name)).subtracting(ownFields).sorted(by: { $0.rawName < $1.rawName }) {
            let pointer = "/response/headers/\(escaped(name.rawName))"
            let expected = stub.headerFields[values: name].joined(separator: ", ")
            guard let value = real.headerFields[name] == nil ? nil : real.headerFields[values: name] else {
                found.append((pointer, "missing; the stub sets it to \"\(expected)\""))
                continue
            }
            let actual = value.joined(separator: ", ")
            let templated = templates?.headerFields[values: name].contains { $0.contains("{{") } == true
            if actual != expected, !templated, !isVolatile(header: name), !isVolatile(.string(expected)) {
                found.append((pointer, "\"\(actual)\" where the stub sets \"\(expected)\""))
            }
        }
        guard !stub.body.isEmpty, let expected = JSONValue(parsing: stub.body) else { return found }
        guard let actual = JSONValue(parsing: real.body) else {
            found.append(
                (
                    "/response/body",
                    real.body.isEmpty ? "no body where the stub has JSON" : "not JSON where the stub has JSON"
                ))
            return found
        }
        // A template body that is not JSON as written (`"id": {{request.path.1}}`) templates it all.
        let templated: JSONValue?? = templates.map { JSONValue(parsing: $0.body) }
        compare(actual, expected, templated: templated, at: "/response/jsonBody", into: &found)
        return found
    }

    /// `templated` is the stub's template at this place: `nil` where the stub is not templated,
    /// `.some(nil)` where all of it is.
    private static func compare(
        _ actual: JSONValue, _ expected: JSONValue, templated: JSONValue??, name: String? = nil, at pointer: String,
        into found: inout [(pointer: String, message: String)]
    ) {
        switch (actual, expected) {
        case (.object(let real), .object(let stub)):
            for key in Set(real.keys).union(stub.keys).sorted() {
                let place = "\(pointer)/\(escaped(key))"
                switch (real[key], stub[key]) {
                case (let real?, let stub?):
                    let inner: JSONValue?? =
                        switch templated {
                        case .some(.some(.object(let members))): .some(members[key])
                        case .some(.some): nil
                        case .some(.none): .some(nil)
                        case .none: nil
                        }
                    compare(real, stub, templated: inner, name: key, at: place, into: &found)
                case (nil, let stub?): found.append((place, "missing; the stub has \(kind(of: stub))"))
                case (let real?, nil): found.append((place, "\(kind(of: real)) the stub does not have"))
                case (nil, nil): break
                }
            }
        case (.array(let real), .array(let stub)):
            for (index, item) in real.enumerated() {
                let inner: JSONValue?? =
                    switch templated {
                    case .some(.some(.array(let items))): .some(items.indices.contains(index) ? items[index] : nil)
                    case .some(.some): nil
                    case .some(.none): .some(nil)
                    case .none: nil
                    }
                if index < stub.count {
                    compare(item, stub[index], templated: inner, name: name, at: "\(pointer)/\(index)", into: &found)
                } else if let first = stub.first {
                    // Past the stub's items, the shape of its first: its values are the stub's
                    // data, not the real one's.
                    compare(item, first, templated: .some(nil), name: name, at: "\(pointer)/\(index)", into: &found)
                }
            }
        default:
            if kind(of: actual) != kind(of: expected) {
                found.append((pointer, "\(kind(of: actual)) where the stub has \(kind(of: expected))"))
            } else if actual != expected, !isTemplated(templated), !(name.map(isVolatile(name:)) ?? false),
                !isVolatile(expected)
            {
                found.append((pointer, "\(text(actual)) where the stub has \(text(expected))"))
            }
        }
    }

    private static func isTemplated(_ templated: JSONValue??) -> Bool {
        switch templated {
        case .none: false
        case .some(.none): true
        case .some(.some(.string(let text))): text.contains("{{")
        case .some(.some): false
        }
    }

    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): "\"\(text)\""
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? "\(Int(number))" : "\(number)"
        case .bool(let flag): "\(flag)"
        default: kind(of: value)
        }
    }

    private static func escaped(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    // MARK: Volatile values

    /// The words of a field's name that make its value volatile: an identifier, a token, a time.
    package static let volatileWords: Set<String> = [
        "id", "ids", "uuid", "guid", "token", "nonce", "etag", "cursor", "signature", "secret", "session",
        "timestamp", "date", "time", "created", "updated", "modified", "expires", "expiry", "at",
    ]

    /// Header fields whose values are times or tokens by definition.
    package static let volatileHeaders: Set<String> = ["date", "expires", "last-modified", "age", "set-cookie"]

    /// Whether a field of this name holds a volatile value: one of its words (split at `_`, `-`,
    /// `.` and where a lower-case letter or digit meets an upper-case one, case ignored) is one of
    /// ``volatileWords``: `id`, `userId`, `created_at`, `X-Request-Id`, `nextCursor`.
    package static func isVolatile(name: String) -> Bool {
        words(of: name).contains { volatileWords.contains($0) }
    }

    /// Whether a header field holds a volatile value: one of ``volatileHeaders``, or by its name's words.
    package static func isVolatile(header name: HTTPField.Name) -> Bool {
        volatileHeaders.contains(name.canonicalName) || isVolatile(name: name.rawName)
    }

    /// Whether the stub's value is volatile by its format: a UUID, an RFC 3339 date or date-time
    /// (it starts `YYYY-MM-DD`), an HTTP date (`Tue, 15 Nov 1994 08:12:31 GMT`), a token (20 or
    /// more letters, digits and `-._~+/=_`, with a letter and a digit among them), or a whole number
    /// from 1,000,000,000 to 99,999,999,999,999 (Unix time in seconds or milliseconds).
    package static func isVolatile(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let number):
            number == number.rounded() && (1e9..<1e14).contains(number)
        case .string(let text):
            isUUID(Array(text.utf8)) || isDate(Array(text.utf8.prefix(10))) || isHTTPDate(Array(text.utf8))
                || isToken(text)
        default:
            false
        }
    }

    private static func isUUID(_ bytes: [UInt8]) -> Bool {
        bytes.count == 36
            && bytes.indices.allSatisfy {
                [8, 13, 18, 23].contains($0) ? bytes[$0] == UInt8(ascii: "-") : bytes[$0].isHex
            }
    }

    /// `YYYY-MM-DD`.
    private static func isDate(_ bytes: [UInt8]) -> Bool {
        bytes.count == 10
            && bytes.indices.allSatisfy { [4, 7].contains($0) ? bytes[$0] == UInt8(ascii: "-") : bytes[$0].isDigit }
    }

    /// `Tue, 15 Nov 1994 08:12:31 GMT`, with its digits where they go.
    private static func isHTTPDate(_ bytes: [UInt8]) -> Bool {
        bytes.count == 29 && bytes[3] == UInt8(ascii: ",") && bytes.suffix(4) == Array(" GMT".utf8)
            && [5, 6, 12, 13, 14, 15, 17, 18, 20, 21, 23, 24].allSatisfy { bytes[$0].isDigit }
    }

    private static func isToken(_ text: String) -> Bool {
        text.utf8.count >= 20 && text.utf8.contains(where: \.isLetter) && text.utf8.contains(where: \.isDigit)
            && text.utf8.allSatisfy { $0.isLetter || $0.isDigit || Array("-._~+/=_".utf8).contains($0) }
    }

    private static func words(of name: String) -> [String] {
        var words: [String] = []
        var word = ""
        var previous: Character?
        for character in name {
            if "_-. ".contains(character) {
                words.append(word)
                word = ""
            } else {
                if character.isUppercase, let previous, previous.isLowercase || previous.isNumber {
                    words.append(word)
                    word = ""
                }
                word.append(character)
            }
            previous = character
        }
        words.append(word)
        return words.filter { !$0.isEmpty }.map { $0.lowercased() }
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
    fileprivate var isHex: Bool {
        isDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self | 0x20)
    }
    fileprivate var isLetter: Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self | 0x20) }
}
