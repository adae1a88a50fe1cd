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
    private let texts: ParameterTexts

    /// A parameter called `name` with an initial value.
    public init(wrappedValue: Value, name: String) where Value: LosslessStringConvertible {
        self.init(wrappedValue, name, .single)
    }

    /// A parameter called `name`, left out while `nil`.
    public init<Wrapped: LosslessStringConvertible>(wrappedValue: Value, name: String) where Value == Wrapped? {
        self.init(wrappedValue, name, .optional)
    }

    /// A parameter called `name`, repeated for each element.
    public init<Element: LosslessStringConvertible>(wrappedValue: Value, name: String) where Value == [Element] {
        self.init(wrappedValue, name, .list)
    }

    private init(_ value: Value, _ name: String, _ texts: ParameterTexts) {
        wrappedValue = value
        self.name = name
        self.texts = texts
    }
}

extension Query: RequestParameter {
    func add(to items: inout [URLQueryItem], _ fields: inout [HTTPField]) {
        items += texts.texts(wrappedValue).map { URLQueryItem(name: name, value: $0) }
    }
}
