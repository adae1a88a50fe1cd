public import HTTPTypes

/// What request and response logs hide: secrets in header fields, query parameters and JSON bodies.
public struct LogRedaction: Sendable, Hashable {
    /// Header fields whose values are hidden.
    public var headerFields: Set<HTTPField.Name>
    /// Query parameters and JSON object keys whose values are hidden, compared case-insensitively.
    public var parameters: Set<String>

    /// Creates a redaction; by default credentials in header fields are hidden.
    public init(
        headerFields: Set<HTTPField.Name> = [.authorization, .proxyAuthorization, .cookie, .setCookie],
        parameters: Set<String> = ["password", "token", "access_token", "refresh_token", "api_key", "secret"]
    ) {
        self.headerFields = headerFields
        self.parameters = Set(parameters.map { $0.lowercased() })
    }

    /// What stands in for a hidden value.
    public static let mask = "<redacted>"
}
