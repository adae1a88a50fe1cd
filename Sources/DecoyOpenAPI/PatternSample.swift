/// A string that matches a `pattern` of a schema, made from the pattern itself: literal
/// characters, classes (`[a-z0-9_]`, `\d`, `\w`, `.`), groups with alternatives (the first,
/// or the longest when a longer string is asked for) and quantifiers. What it does not make
/// (look-arounds, back-references) gives `nil`, and the caller falls back on other candidates;
/// every candidate is checked against the schema.
struct PatternSample {
    private indirect enum Node {
        case character(Character)
        /// A character of a class: the first allowed one.
        case oneOf(Character)
        case sequence([Node])
        case repeated(Node, minimum: Int, maximum: Int?)
        case alternatives([Node])
    }

    private let root: Node

    /// `nil` when the pattern uses what this does not make.
    init?(_ pattern: String) {
        var parser = Parser(characters: Array(pattern))
        guard let root = parser.alternatives(), parser.index == parser.characters.count else { return nil }
        self.root = root
    }

    /// The sample, each quantified part repeated `extra` times more than its minimum, within its maximum.
    func string(extra: Int) -> String {
        var text = ""
        Self.write(root, extra: extra, into: &text)
        return text
    }

    private static func write(_ node: Node, extra: Int, into text: inout String) {
        switch node {
        case .character(let character), .oneOf(let character): text.append(character)
        case .sequence(let nodes): for node in nodes { write(node, extra: extra, into: &text) }
        case .alternatives(let choices):
            let written = choices.map { choice in
                var choiceText = ""
                write(choice, extra: extra, into: &choiceText)
                return choiceText
            }
            text += extra == 0 ? written[0] : written.max { $0.count < $1.count } ?? ""
        case .repeated(let node, let minimum, let maximum):
            let count = min(minimum + extra, maximum ?? .max, minimum + 64)
            for _ in 0..<count { write(node, extra: extra, into: &text) }
        }
    }

    private struct Parser {
        let characters: [Character]
        var index = 0

        /// `a|b|c`.
        mutating func alternatives() -> Node? {
            guard let first = sequence() else { return nil }
            var choices = [first]
            while index < characters.count, characters[index] == "|" {
                index += 1
                guard let next = sequence() else { return nil }
                choices.append(next)
            }
            return choices.count == 1 ? first : .alternatives(choices)
        }

        mutating func sequence() -> Node? {
            var nodes: [Node] = []
            while index < characters.count, characters[index] != "|", characters[index] != ")" {
                let character = characters[index]
                if character == "^" || character == "$" {
                    index += 1
                    continue
                }
                guard let atom = atom() else { return nil }
                guard let quantified = quantifier(atom) else { return nil }
                nodes.append(quantified)
            }
            return .sequence(nodes)
        }

        mutating func atom() -> Node? {
            let character = characters[index]
            index += 1
            switch character {
            case "(":
                if index < characters.count, characters[index] == "?" {
                    // Only a non-capturing group; look-arounds and named groups are not made.
                    guard index + 1 < characters.count, characters[index + 1] == ":" else { return nil }
                    index += 2
                }
                guard let inner = alternatives(), index < characters.count, characters[index] == ")" else {
                    return nil
                }
                index += 1
                return inner
            case "[": return characterClass()
            case ".": return .oneOf("a")
            case "\\": return escape(inClass: false)
            case "*", "+", "?", "{": return nil
            default: return .character(character)
            }
        }

        /// After a backslash.
        mutating func escape(inClass: Bool) -> Node? {
            guard index < characters.count else { return nil }
            let character = characters[index]
            index += 1
            switch character {
            case "d": return .oneOf("0")
            case "w": return .oneOf("a")
            case "s": return .oneOf(" ")
            case "D", "W", "S": return .oneOf("-")
            case "n": return .character("\n")
            case "t": return .character("\t")
            case "b", "B": return inClass ? .character("\u{8}") : .sequence([])
            case _ where character.isNumber: return nil
            default: return .character(character)
            }
        }

        /// `[a-z0-9_]`, `[^,]`: the first character allowed.
        mutating func characterClass() -> Node? {
            var negated = false
            if index < characters.count, characters[index] == "^" {
                negated = true
                index += 1
            }
            var allowed: [ClosedRange<Character>] = []
            var first = true
            while index < characters.count, characters[index] != "]" || first {
                first = false
                var low = characters[index]
                index += 1
                if low == "\\" {
                    switch escape(inClass: true) {
                    case .character(let character)?: low = character
                    // A class escape such as \d: its sample stands for the class.
                    case .oneOf(let character)?:
                        allowed.append(character...character)
                        continue
                    default: return nil
                    }
                }
                if index + 1 < characters.count, characters[index] == "-", characters[index + 1] != "]" {
                    var high = characters[index + 1]
                    index += 2
                    if high == "\\", index < characters.count {
                        high = characters[index]
                        index += 1
                    }
                    guard low <= high else { return nil }
                    allowed.append(low...high)
                } else {
                    allowed.append(low...low)
                }
            }
            guard index < characters.count else { return nil }
            index += 1
            if !negated { return allowed.first.map { .oneOf($0.lowerBound) } }
            let choice = "aA0-_x.".first { character in !allowed.contains { $0.contains(character) } }
            return choice.map(Node.oneOf)
        }

        mutating func quantifier(_ atom: Node) -> Node? {
            guard index < characters.count else { return atom }
            let node: Node
            switch characters[index] {
            case "*":
                index += 1
                node = .repeated(atom, minimum: 0, maximum: nil)
            case "+":
                index += 1
                node = .repeated(atom, minimum: 1, maximum: nil)
            case "?":
                index += 1
                node = .repeated(atom, minimum: 0, maximum: 1)
            case "{":
                guard let close = characters[index...].firstIndex(of: "}") else { return nil }
                let bounds = String(characters[(index + 1)..<close]).split(
                    separator: ",", omittingEmptySubsequences: false)
                guard let minimum = bounds.first.flatMap({ Int($0) }), bounds.count <= 2 else { return nil }
                let maximum = bounds.count == 1 ? minimum : Int(bounds[1])
                index = close + 1
                node = .repeated(atom, minimum: minimum, maximum: maximum)
            default:
                return atom
            }
            // A lazy or possessive quantifier matches the same strings.
            if index < characters.count, characters[index] == "?" || characters[index] == "+" { index += 1 }
            return node
        }
    }
}
