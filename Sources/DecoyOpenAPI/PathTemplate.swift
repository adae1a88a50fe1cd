import Foundation

/// An OpenAPI path template, whose parameters may sit inside a segment: `/Accounts/{Sid}.json`.
struct PathTemplate {
    /// One segment: literal text and parameters, in order.
    enum Part: Equatable {
        case literal(String)
        case parameter(String)
    }

    let segments: [[Part]]

    init(_ path: String) {
        segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { segment in
            var parts: [Part] = []
            var rest = Substring(segment)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
                parts.append(.parameter(String(rest[rest.index(after: open)..<close])))
                rest = rest[rest.index(after: close)...]
            }
            if !rest.isEmpty || parts.isEmpty { parts.append(.literal(String(rest))) }
            return parts
        }
    }

    /// How many parameters the path has: OpenAPI's order of matching puts fewer first.
    var parameterCount: Int {
        segments.reduce(0) { count, parts in
            count + parts.count { if case .parameter = $0 { true } else { false } }
        }
    }

    /// The path as a Decoy route template, when every parameter is a whole segment with a name
    /// a route takes; `nil` otherwise.
    var routePath: String? {
        var path = ""
        for parts in segments {
            guard parts.count == 1 else { return nil }
            switch parts[0] {
            case .parameter(let name):
                guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
                path += "/{\(name)}"
            case .literal(let text):
                guard !text.contains(where: { "{}*".contains($0) }) else { return nil }
                path += "/\(text)"
            }
        }
        return path.isEmpty ? "/" : path
    }

    /// A regular expression matching the whole path, a group for each parameter.
    var expression: String {
        "/"
            + segments.map { parts in
                parts.map {
                    switch $0 {
                    case .literal(let text): NSRegularExpression.escapedPattern(for: text)
                    case .parameter: "([^/]*)"
                    }
                }.joined()
            }.joined(separator: "/")
    }

    /// The names of the parameters, in the order of ``expression``'s groups.
    var parameterNames: [String] {
        segments.flatMap { $0.compactMap { if case .parameter(let name) = $0 { name } else { nil } } }
    }
}
