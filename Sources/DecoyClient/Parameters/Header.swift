import Foundation
public import HTTPTypes

/// A stored property of a ``Request`` type sent as a header field: a value sent as its text,
/// an optional left out while `nil`, an array sent as repeated fields.
///
/// ```swift
/// @Header(.accept) var accept = "application/json"
/// @Header(.authorization) var authorization: String? = nil   // left out while nil
/// ```
@propertyWrapper
public struct Header<Value: Sendable>: Sendable {
    /// The field's value.
    public var wrappedValue: Value
    /// The field's name.
    public let name: HTTPField.Name

    /// A field called `name` with an initial value.
    public init(wrappedValue: Value, _ name: HTTPField.Name) where Value: LosslessStringConvertible {
        self.wrappedValue = wrappedValue
        self.name = name
    }

    /// A field called `name`, left out while `nil`.
    public init<Wrapped: LosslessStringConvertible>(wrappedValue: Value, _ name: HTTPField.Name)
    where Value == Wrapped? {
        self.wrappedValue = wrappedValue
        self.name = name
    }

    /// A field called `name`, repeated for each element.
    public init<Element: LosslessStringConvertible>(wrappedValue: Value, _ name: HTTPField.Name)
    where Value == [Element] {
        self.wrappedValue = wrappedValue
        self.name = name
    }
}

extension Header: RequestParameter {
    func add(to items: inout [URLQueryItem], _ fields: inout [HTTPField]) {
        fields += parameterTexts(wrappedValue).map { HTTPField(name: name, value: $0) }
    }
}
