/// Reads JSON as WireMock 2.35.1 reads mapping files, which real folders rely on: `//` and
/// `/* */` comments, text after the first value, and a key given twice, the last one read.
///
/// The text is made strict JSON by blanking what WireMock passes over, each byte but line breaks
/// turned into a space, so that every line and column a later error names is still the file's.
/// Tabs become spaces too: the text is parsed as YAML, which forbids them in indentation, and a
/// JSON tab is whitespace or escaped, never inside a string.
struct LenientJSON {
    /// Something read leniently, at its first place in the file.
    struct Leniency: Equatable {
        enum Kind: Equatable {
            case comment
            case trailingText
            case duplicateKey(String)
            case loneSurrogate
        }

        let kind: Kind
        let line: Int
        let column: Int

        var message: String {
            switch kind {
            case .comment:
                "comments are not JSON; read past, as WireMock reads them"
            case .trailingText:
                "text after the file's JSON value is ignored, as WireMock ignores it"
            case .duplicateKey(let key):
                "\"\(key)\" is given more than once in an object; the last one counts, as in WireMock"
            case .loneSurrogate:
                "a \\u escape of half a UTF-16 surrogate pair is read as \"?\", as WireMock sends it in a body"
            }
        }

        /// Whether it is of the kind `other`: every duplicate key is one kind.
        func isOfKind(_ other: Kind) -> Bool {
            switch (kind, other) {
            case (.comment, .comment), (.trailingText, .trailingText), (.duplicateKey, .duplicateKey),
                (.loneSurrogate, .loneSurrogate):
                true
            default: false
            }
        }
    }

    /// The strict JSON text.
    private(set) var text: [UInt8]
    /// Whether ``text`` differs from what was read.
    private(set) var isChanged = false
    /// What was read leniently, in the order found.
    private(set) var leniencies: [Leniency] = []

    /// An object being read: its keys so far, each with where its member starts.
    private struct OpenObject {
        var members: [String: Int] = [:]
        /// The key just read, waiting for its value to end.
        var key: (name: String, start: Int)?
    }

    /// Reads `bytes`; what cannot be made sense of is left as it is, for the parser to report.
    init(_ bytes: [UInt8]) {
        text = bytes
        for index in text.indices where text[index] == UInt8(ascii: "\t") {
            text[index] = UInt8(ascii: " ")
            isChanged = true
        }
        var index = 0
        var objects: [OpenObject] = []
        var containers: [UInt8] = []
        var valueEnded = false
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "/"), index + 1 < text.count,
                text[index + 1] == UInt8(ascii: "/") || text[index + 1] == UInt8(ascii: "*")
            {
                note(.comment, at: index)
                index = blankComment(from: index)
                continue
            }
            if valueEnded, !Self.isSpace(byte) {
                note(.trailingText, at: index)
                blank(index..<text.count)
                break
            }
            switch byte {
            case UInt8(ascii: "\""):
                let end = Self.stringEnd(in: text, from: index)
                if containers.last == UInt8(ascii: "{"), objects.last?.key == nil, isKey(after: end) {
                    let name = String(decoding: text[(index + 1)..<max(index + 1, end - 1)], as: UTF8.self)
                    objects[objects.count - 1].key = (name, index)
                }
                combineSurrogates(inStringAt: index..<end)
                index = end
                valueEnded = containers.isEmpty
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                containers.append(byte)
                if byte == UInt8(ascii: "{") { objects.append(OpenObject()) }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if byte == UInt8(ascii: "}"), containers.last == UInt8(ascii: "{") {
                    endMember(of: &objects)
                    objects.removeLast()
                }
                if !containers.isEmpty { containers.removeLast() }
                valueEnded = containers.isEmpty
            case UInt8(ascii: ","):
                if containers.last == UInt8(ascii: "{") { endMember(of: &objects) }
            default:
                // A bare literal or number at the top level is a whole value once it ends.
                if containers.isEmpty, !Self.isSpace(byte) {
                    while index < text.count, !Self.isSpace(text[index]), text[index] != UInt8(ascii: "/") {
                        index += 1
                    }
                    valueEnded = true
                    continue
                }
            }
            index += 1
        }
    }

    /// Rewrites the string at `range` for the YAML parser, which refuses JSON's UTF-16 surrogate
    /// escapes (RFC 8259 §7), as mitmproxy's HAR export writes every character past U+FFFF: a pair,
    /// `\ud83d\uddbc`, becomes YAML's `\U0001F5BC`, and a lone surrogate `?`, as WireMock 2.35.1
    /// sends it in a `body` (Java's UTF-8 encoder replaces it so). The string ends two bytes sooner
    /// per pair, five per lone one, and as many spaces follow its closing quote, so that what comes
    /// after it keeps its column.
    private mutating func combineSurrogates(inStringAt range: Range<Int>) {
        guard text[range].contains(UInt8(ascii: "\\")) else { return }
        var rewritten: [UInt8] = []
        var changed = false
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = text[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < range.upperBound else {
                rewritten.append(byte)
                index += 1
                continue
            }
            guard let high = utf16Escape(at: index, before: range.upperBound), UTF16.isSurrogate(high) else {
                // Another escape, kept whole so that its second byte is not taken for a quote or an escape.
                rewritten += text[index..<index + 2]
                index += 2
                continue
            }
            changed = true
            if UTF16.isLeadSurrogate(high), let low = utf16Escape(at: index + 6, before: range.upperBound),
                UTF16.isTrailSurrogate(low)
            {
                let scalar = String(decoding: [high, low], as: UTF16.self).unicodeScalars.first?.value ?? 0xFFFD
                rewritten += Array(("\\U" + String(scalar, radix: 16).leftPadded(to: 8)).utf8)
                index += 12
            } else {
                note(.loneSurrogate, at: index)
                rewritten.append(UInt8(ascii: "?"))
                index += 6
            }
        }
        guard changed else { return }
        rewritten += Array(repeating: UInt8(ascii: " "), count: range.count - rewritten.count)
        text.replaceSubrange(range, with: rewritten)
        isChanged = true
    }

    /// The code unit of the `\uXXXX` escape at `index`, when one ends before `end`.
    private func utf16Escape(at index: Int, before end: Int) -> UInt16? {
        guard index + 6 <= end, text[index] == UInt8(ascii: "\\"), text[index + 1] == UInt8(ascii: "u") else {
            return nil
        }
        return UInt16(String(decoding: text[index + 2..<index + 6], as: UTF8.self), radix: 16)
    }

    /// Whether the string that ends at `end` is a key: a colon follows it.
    private func isKey(after end: Int) -> Bool {
        var index = end
        while index < text.count, Self.isSpace(text[index]) { index += 1 }
        return index < text.count && text[index] == UInt8(ascii: ":")
    }

    /// Closes the member being read; when its key was given before, the earlier member is
    /// blanked, comma and all.
    private mutating func endMember(of objects: inout [OpenObject]) {
        guard var object = objects.popLast() else { return }
        defer { objects.append(object) }
        guard let key = object.key else { return }
        object.key = nil
        if let earlier = object.members[key.name] {
            note(.duplicateKey(key.name), at: key.start)
            blank(earlier..<memberEnd(from: earlier))
        }
        object.members[key.name] = key.start
    }

    /// Where the member starting at `start` ends, just past its comma: the earlier of two members
    /// with one key is never an object's last.
    private func memberEnd(from start: Int) -> Int {
        var index = start
        var depth = 0
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: "\""):
                index = Self.stringEnd(in: text, from: index)
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ",") where depth == 0: return index + 1
            default: break
            }
            index += 1
        }
        return index
    }

    /// Blanks the comment starting at `start`; returns the index past it.
    private mutating func blankComment(from start: Int) -> Int {
        let isLine = text[start + 1] == UInt8(ascii: "/")
        var end = start + 2
        if isLine {
            while end < text.count, text[end] != UInt8(ascii: "\n") { end += 1 }
        } else {
            while end + 1 < text.count, !(text[end] == UInt8(ascii: "*") && text[end + 1] == UInt8(ascii: "/")) {
                end += 1
            }
            end = min(end + 2, text.count)
        }
        blank(start..<end)
        return end
    }

    private mutating func blank(_ range: Range<Int>) {
        for index in range where text[index] != UInt8(ascii: "\n") && text[index] != UInt8(ascii: "\r") {
            text[index] = UInt8(ascii: " ")
        }
        isChanged = isChanged || !range.isEmpty
    }

    /// Notes `kind` at `index`, unless one of its kind was noted already.
    private mutating func note(_ kind: Leniency.Kind, at index: Int) {
        guard !leniencies.contains(where: { $0.isOfKind(kind) }) else { return }
        let (line, column) = Self.place(of: index, in: text)
        leniencies.append(Leniency(kind: kind, line: line, column: column))
    }

    /// The index just past the string that opens at `start`.
    private static func stringEnd(in text: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return text.count
    }

    /// The line and column of `index`, from 1, as the parser counts them.
    private static func place(of index: Int, in text: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for position in 0..<min(index, text.count) where text[position] == UInt8(ascii: "\n") {
            line += 1
            lineStart = position + 1
        }
        return (line, index - lineStart + 1)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "\t")
    }
}
