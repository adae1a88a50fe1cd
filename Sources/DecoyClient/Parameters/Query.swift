import Foundation
import HTTPTypes

/// A stored property of a ``Request`` type sent as a query parameter: a value sent as its text,
/// an optional left out while `nil`, an array sent as repeated items.
///
/// ```swift
/// @Query(name: "page") var page = 1
/// @Query(name: "tag") var tags: [String] = []   // tag=a&tag=b
/// @Query(name: "q") var text: String? = nil     // left out while nil
/// ```
@propertyWrapper
public struct Query<Value: Sendable>: Sendable {
    /// The parameter's value.
    public var wrappedValue: Value
    /// The parameter's name.
    public let name: String

    /// A parameter called `name` with an initial value.
    public init(wrappedValue: Value, name: String) where Value: LosslessStringConvertible {
        self.wrappedValue = wrappedValue
        self.name = name
    }

    /// A parameter called `name`, left out while `nil`.
    public init<Wrapped: LosslessStringConvertible>(wrappedValue: Value, name: String) where Value == Wrapped? {
        self.wrappedValue = wrappedValue
        self.name = name
    }

    /// A parameter called `name`, repeated for each element.
    public init<Element: LosslessStringConvertible>(wrappedValue: Value, name: String) where Value == [Element] {
        self.wrappedValue = wrappedValue
        self.name = name
    }
}

extension Query: RequestParameter {
    func add(to items: inout [URLQueryItem], _ fields: inout [HTTPField]) {
        items += parameterTexts(wrappedValue).map { URLQueryItem(name: name, value: $0) }
    }
}
