/// A value a ``Query`` or ``Header`` property can send: none (a `nil`), one, or several
/// (an array, sent as repeated items or fields).
public protocol ParameterValue: Sendable {
    /// The values as text.
    var parameterValues: [String] { get }
}

extension String: ParameterValue {
    /// Itself.
    public var parameterValues: [String] { [self] }
}

extension Int: ParameterValue {
    /// Its decimal digits.
    public var parameterValues: [String] { [String(self)] }
}

extension Double: ParameterValue {
    /// Its shortest exact decimal form.
    public var parameterValues: [String] { [String(self)] }
}

extension Bool: ParameterValue {
    /// `true` or `false`.
    public var parameterValues: [String] { [String(self)] }
}

extension Optional: ParameterValue where Wrapped: ParameterValue {
    /// None for `nil`, so that an unset parameter is left out.
    public var parameterValues: [String] { self?.parameterValues ?? [] }
}

extension Array: ParameterValue where Element: ParameterValue {
    /// Each element's values, in order.
    public var parameterValues: [String] { flatMap(\.parameterValues) }
}
