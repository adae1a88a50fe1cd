// CYaml is the libyaml that Yams builds and links, a target Yams does not offer as a product.
// Decoy reaches it through Yams because the bound needs libyaml's events, and Yams 6's public
// API has none: `Parser` hands out composed nodes only (`nextRoot`, `singleRoot`), and composing
// is what must not happen first, since Yams expands an alias used as a mapping key to compare keys.
import CYaml

/// Measures what a YAML text stands for with its aliases expanded, from libyaml's events, before
/// anything is built from it.
///
/// A few hundred bytes of nested anchors can stand for billions of values, and a large scalar
/// aliased many times for gigabytes of text; Yams expands aliases itself when one is a mapping
/// key (to compare keys), and every value built from the file walks the tree with its aliases
/// expanded, so the measure has to come before Yams composes the document. Each anchor's size is
/// the number of values and the bytes of scalar text from its start to its end; an alias adds
/// that size; the measure stops at the first limit passed.
enum AliasBound {
    /// What the expanded text passes first.
    enum Excess: Equatable {
        /// More values than allowed.
        case values
        /// More bytes of scalar text than allowed.
        case bytes
    }

    /// How many bytes of scalar text a file of `size` bytes may stand for with its aliases
    /// expanded: 10 MiB, or four times its size when that is more, so that a large file may still
    /// repeat a part of itself a few times.
    static func byteLimit(forFileOf size: Int) -> Int {
        max(4 * size, 10 * 1024 * 1024)
    }

    /// What `text`, aliases expanded, has more of than `values` values or `bytes` bytes of scalar
    /// text; `nil` when it has neither. Text libyaml cannot parse passes, so that Yams reports the
    /// problem in its own words.
    static func excess(in text: String, values: Int, bytes: Int) -> Excess? {
        // Without an asterisk there is no alias, and nothing to count.
        guard text.utf8.contains(UInt8(ascii: "*")) else { return nil }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        var input = Array(text.utf8)
        return input.withUnsafeMutableBufferPointer { buffer in
            // libyaml reads the buffer only while the parser runs, inside this closure.
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var total = Size()
            var sizes: [String: Size] = [:]
            var open: [(anchor: String?, start: Size)] = []
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return nil
                case YAML_SCALAR_EVENT:
                    let scalar = Size(values: 1, bytes: event.data.scalar.length)
                    total.add(scalar)
                    if let anchor = string(event.data.scalar.anchor) { sizes[anchor] = scalar }
                case YAML_SEQUENCE_START_EVENT:
                    open.append((string(event.data.sequence_start.anchor), total))
                    total.add(Size(values: 1, bytes: 0))
                case YAML_MAPPING_START_EVENT:
                    open.append((string(event.data.mapping_start.anchor), total))
                    total.add(Size(values: 1, bytes: 0))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    if let (anchor, start) = open.popLast(), let anchor { sizes[anchor] = total.since(start) }
                case YAML_ALIAS_EVENT:
                    if let size = string(event.data.alias.anchor).flatMap({ sizes[$0] }) { total.add(size) }
                default:
                    break
                }
                if total.values > values { return .values }
                if total.bytes > bytes { return .bytes }
            }
            return nil
        }
    }

    /// Values and bytes of scalar text. Plain sums cannot overflow: the measure stops once one
    /// passes its limit, so every anchor's size, and the total before an alias adds one, is
    /// within the limits.
    private struct Size {
        var values = 0
        var bytes = 0

        mutating func add(_ other: Size) {
            values += other.values
            bytes += other.bytes
        }

        /// What was added since `start`.
        func since(_ start: Size) -> Size {
            Size(values: values - start.values, bytes: bytes - start.bytes)
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
