import Foundation

/// A stored property of an ``Endpoint`` sent as a query parameter.
///
/// ```swift
/// @Query(name: "page") var page = 1
/// @Query(name: "tag") var tags: [String] = []   // tag=a&tag=b
/// @Query(name: "q") var text: String? = nil     // left out while nil
/// ```
@propertyWrapper
public struct Query<Value: ParameterValue>: Sendable {
    /// The parameter's value.
    public var wrappedValue: Value
    /// The parameter's name.
    public let name: String

    /// A parameter called `name` with an initial value.
    public init(wrappedValue: Value, name: String) {
        self.wrappedValue = wrappedValue
        self.name = name
    }
}

/// What ``Endpoint`` finds by reflection among an endpoint's stored properties.
protocol QueryItemsProviding {
    var queryItemList: [URLQueryItem] { get }
}

extension Query: QueryItemsProviding {
    var queryItemList: [URLQueryItem] {
        wrappedValue.parameterValues.map { URLQueryItem(name: name, value: $0) }
    }
}
