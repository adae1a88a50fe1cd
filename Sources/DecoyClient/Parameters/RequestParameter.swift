import Foundation
import HTTPTypes

/// A stored property of a ``Request`` type that its resource sends, found by reflection: a
/// ``Query`` or a ``Header``.
protocol RequestParameter {
    /// Adds the parameter's query items or header fields to those gathered so far.
    func add(to items: inout [URLQueryItem], _ fields: inout [HTTPField])
}

/// How a ``Query`` or ``Header`` value becomes texts: one, none or one (an optional), or one
/// per element; which one its constrained initializer says, so the casts below cannot fail.
enum ParameterTexts: Sendable {
    case single, optional, list

    func texts(_ value: Any) -> [String] {
        switch self {
        case .single: [(value as! any LosslessStringConvertible).description]
        // Casting an optional to a protocol unwraps it, and fails for `nil`.
        case .optional: (value as? any LosslessStringConvertible).map { [$0.description] } ?? []
        case .list: (value as! [any LosslessStringConvertible]).map(\.description)
        }
    }
}
