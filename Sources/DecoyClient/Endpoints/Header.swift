public import HTTPTypes

/// A stored property of an ``Endpoint`` sent as a header field.
///
/// ```swift
/// @Header(.accept) var accept = "application/json"
/// @Header(.authorization) var authorization: String? = nil   // left out while nil
/// ```
@propertyWrapper
public struct Header<Value: ParameterValue>: Sendable {
    /// The field's value.
    public var wrappedValue: Value
    /// The field's name.
    public let name: HTTPField.Name

    /// A field called `name` with an initial value.
    public init(wrappedValue: Value, _ name: HTTPField.Name) {
        self.wrappedValue = wrappedValue
        self.name = name
    }
}

/// What ``Endpoint`` finds by reflection among an endpoint's stored properties.
protocol HeaderFieldsProviding {
    var headerFieldList: [HTTPField] { get }
}

extension Header: HeaderFieldsProviding {
    var headerFieldList: [HTTPField] {
        wrappedValue.parameterValues.map { HTTPField(name: name, value: $0) }
    }
}
