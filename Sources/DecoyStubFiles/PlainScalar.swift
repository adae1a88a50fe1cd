/// What an unquoted YAML scalar stands for, by YAML 1.1's rules for flags and null.
///
/// Files are parsed with Yams's basic resolver, which leaves every scalar a string: its
/// default one runs regular expressions on each scalar, which cost more than the rest of
/// the parse.
enum PlainScalar {
    /// `true` or `false` for YAML's spellings of them, such as `true`, `Yes` or `off`.
    static func flag(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON": true
        case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF": false
        default: nil
        }
    }

    /// Whether `text` is one of YAML's spellings of null, the empty scalar included.
    static func isNull(_ text: String) -> Bool {
        ["", "~", "null", "Null", "NULL"].contains(text)
    }
}
