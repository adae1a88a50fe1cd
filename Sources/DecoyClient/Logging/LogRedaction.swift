public import HTTPTypes

/// What request and response logs hide: secrets in header fields, query parameters and JSON bodies.
///
/// Names given to the initializer join the defaults, so that naming one more secret never shows
/// the ones hidden by default; showing a default again takes ``revealing(headerFields:parameters:)``.
public struct LogRedaction: Sendable, Hashable {
    /// Header fields whose values are hidden.
    public private(set) var headerFields: Set<HTTPField.Name>
    /// Query parameters and JSON object keys whose values are hidden, lowercased: they are compared
    /// case-insensitively.
    public private(set) var parameters: Set<String>

    /// The credentials header fields hidden whatever names are added.
    public static let defaultHeaderFields: Set<HTTPField.Name> = [
        .authorization, .proxyAuthorization, .cookie, .setCookie,
    ]
    /// The secret parameter and key names hidden whatever names are added.
    public static let defaultParameters: Set<String> = [
        "password", "token", "access_token", "refresh_token", "id_token", "client_secret", "api_key", "secret",
    ]

    /// Hides the defaults and, besides them, `headerFields` and `parameters`.
    public init(headerFields: Set<HTTPField.Name> = [], parameters: Set<String> = []) {
        self.headerFields = Self.defaultHeaderFields.union(headerFields)
        self.parameters = Self.defaultParameters.union(parameters.map { $0.lowercased() })
    }

    /// A copy that shows these header fields and parameters, defaults included: the one way to
    /// let a default secret into the log.
    public func revealing(headerFields: Set<HTTPField.Name> = [], parameters: Set<String> = []) -> LogRedaction {
        var copy = self
        copy.headerFields.subtract(headerFields)
        copy.parameters.subtract(parameters.map { $0.lowercased() })
        return copy
    }

    /// What stands in for a hidden value.
    public static let mask = "<redacted>"
}
