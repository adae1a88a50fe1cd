import CYaml

/// Counts the values a YAML text stands for with its aliases expanded, from libyaml's events,
/// before anything is built from it.
///
/// A few hundred bytes of nested anchors can stand for billions of values, and Yams expands
/// them itself when an alias is a mapping key (to compare keys), so the count has to come
/// before Yams composes the document. Each anchor's size is the number of values from its
/// start to its end; an alias adds that size; the count stops at the limit.
///
/// CYaml is the libyaml that Yams builds and links; Decoy reaches it through Yams.
enum AliasBound {
    /// Whether `text`, aliases expanded, has at most `limit` values. Text libyaml cannot parse
    /// passes, so that Yams reports the problem in its own words.
    static func expandsToAtMost(_ text: String, _ limit: Int) -> Bool {
        // Without an asterisk there is no alias, and nothing to count.
        guard text.utf8.contains(UInt8(ascii: "*")) else { return true }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return true }
        defer { yaml_parser_delete(&parser) }
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            // libyaml reads the buffer only while the parser runs, inside this closure.
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var count = 0
            var sizes: [String: Int] = [:]
            var open: [(anchor: String?, start: Int)] = []
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return true
                case YAML_SCALAR_EVENT:
                    count += 1
                    if let anchor = string(event.data.scalar.anchor) { sizes[anchor] = 1 }
                case YAML_SEQUENCE_START_EVENT:
                    count += 1
                    open.append((string(event.data.sequence_start.anchor), count - 1))
                case YAML_MAPPING_START_EVENT:
                    count += 1
                    open.append((string(event.data.mapping_start.anchor), count - 1))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    if let (anchor, start) = open.popLast(), let anchor { sizes[anchor] = count - start }
                case YAML_ALIAS_EVENT:
                    count += string(event.data.alias.anchor).flatMap { sizes[$0] } ?? 0
                default:
                    break
                }
                if count > limit { return false }
            }
            return true
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
