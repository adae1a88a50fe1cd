import Decoy
import Yams

/// A node of a stub file that knows its place: the field path and line and column, so that
/// every problem found in it is reported where it is.
///
/// The readers return `nil` after logging an error when the node is not what they expect, so
/// that decoding goes on and one pass finds every problem in the file.
struct FileNode {
    let node: Node
    /// The field path, such as `response.headers.Content-Type` or `[2].request`.
    let field: String
    let log: DiagnosticLog

    var mark: (line: Int, column: Int)? { node.mark.map { ($0.line, $0.column) } }

    /// Logs an error at this node.
    func error(_ message: String) {
        log.error(message, field: field, at: mark)
    }

    /// Notes a warning at this node; see ``DiagnosticLog/warning(_:field:at:kind:)``.
    func warning(_ message: String, kind: String? = nil) {
        log.warning(message, field: field, at: mark, kind: kind)
    }

    /// Logs `expected <what>, found <this node>`; returns `nil` to end the reader that failed.
    func expected<Value>(_ what: String) -> Value? {
        error("expected \(what), found \(found)")
        return nil
    }

    /// The node as a message shows what was found: numbers, flags and null as written, text quoted.
    var found: String {
        switch node {
        case .scalar(let scalar) where scalar.style == .plain && scalar.string.isEmpty: "nothing"
        case .scalar(let scalar)
        where scalar.style == .plain
            && (Double(scalar.string) != nil || PlainScalar.flag(scalar.string) != nil
                || PlainScalar.isNull(scalar.string)):
            scalar.string
        case .scalar(let scalar): "\"\(scalar.string)\""
        case .mapping: "an object"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    /// Whether the node is a scalar written without quotes, the only kind that can be a number or a flag.
    var plainScalar: String? {
        guard case .scalar(let scalar) = node, scalar.style == .plain else { return nil }
        return scalar.string
    }

    /// A scalar's text read as `read` reads it: written without quotes, or in quotes with a
    /// warning, as WireMock reads `"status": "200"`.
    private func scalar<Value>(_ read: (String) -> Value?) -> Value? {
        guard case .scalar(let scalar) = node else { return nil }
        guard let value = read(scalar.string) else { return nil }
        if scalar.style != .plain {
            warning(
                "a number or true/false written as a string; read as its value, as WireMock reads it",
                kind: "quoted scalar")
        }
        return value
    }

    /// Any scalar's text, numbers included, as WireMock takes them for strings.
    func text(_ what: String = "a string") -> String? {
        guard case .scalar(let scalar) = node, scalar.style != .plain || !scalar.string.isEmpty else {
            return expected(what)
        }
        return scalar.string
    }

    /// An integer in `range`.
    func integer(in range: ClosedRange<Int>? = nil, _ what: String = "an integer") -> Int? {
        guard let value = scalar({ Int($0) }), range?.contains(value) ?? true else {
            return expected(what)
        }
        return value
    }

    /// A number.
    func number(_ what: String = "a number") -> Double? {
        guard let value = scalar({ Double($0) }), value.isFinite else { return expected(what) }
        return value
    }

    /// `true` or `false`.
    func flag() -> Bool? {
        guard let value = scalar(PlainScalar.flag) else { return expected("true or false") }
        return value
    }

    /// The elements of a list.
    func list(_ what: String = "a list") -> [FileNode]? {
        guard case .sequence(let sequence) = node else { return expected(what) }
        return sequence.enumerated().map { FileNode(node: $1, field: "\(field)[\($0)]", log: log) }
    }

    /// The members of an object; members not in `known` are errors, with the closest known name:
    /// a field Decoy does not know is never ignored. Pass `nil` when any name may be a member, as
    /// for header names.
    func object(known: [String]?, _ what: String = "an object") -> FileObject? {
        guard case .mapping(let mapping) = node else { return expected(what) }
        var members: [(key: String, value: FileNode)] = []
        for (key, value) in mapping {
            let name = key.string ?? ""
            let child = member(name, value)
            members.append((name, child))
            if let known, !known.contains(name) {
                log.error(
                    FieldNames.unknownField(name, known: known), field: child.field,
                    at: key.mark.map { ($0.line, $0.column) })
            }
        }
        return FileObject(node: self, members: members)
    }

    /// The child node `value` under the member `name`.
    func member(_ name: String, _ value: Node) -> FileNode {
        FileNode(node: value, field: field.isEmpty ? name : "\(field).\(name)", log: log)
    }
}

/// An object of a stub file, its members in the order written.
struct FileObject {
    let node: FileNode
    let members: [(key: String, value: FileNode)]

    /// The member `key`, if present.
    subscript(_ key: String) -> FileNode? {
        members.first { $0.key == key }?.value
    }

    /// The first of `keys` present, logging an error when more than one is.
    func oneOf(_ keys: [String]) -> (key: String, value: FileNode)? {
        let present = members.filter { keys.contains($0.key) }
        if present.count > 1 {
            present[1].value.error(
                """
                give only one of \(keys.joined(separator: ", ")); found \
                \(present.map(\.key).joined(separator: " and "))
                """
            )
        }
        return present.first
    }
}
