import Foundation
import HTTPTypes

/// A stored property of a ``Request`` type that its resource sends, found by reflection: a
/// ``Query`` or a ``Header``.
protocol RequestParameter {
    /// Adds the parameter's query items or header fields to those gathered so far.
    func add(to items: inout [URLQueryItem], _ fields: inout [HTTPField])
}

/// The texts a ``Query`` or ``Header`` value sends: one for a value, none for `nil`, one per
/// element of an array. Their initializers take nothing else, so nothing else arrives here.
func parameterTexts(_ value: Any) -> [String] {
    if let list = value as? [any LosslessStringConvertible] { return list.map(\.description) }
    // Casting an optional to a protocol unwraps it, and fails for `nil`.
    return (value as? any LosslessStringConvertible).map { [$0.description] } ?? []
}
