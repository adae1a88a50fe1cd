public import Foundation
public import HTTPTypes
public import Logging

extension APIClient {
    /// Settings shared by every request a client sends.
    public struct Configuration: Sendable {
        /// Header fields sent with every request; a resource's own fields of the same name
        /// replace them, unless the resource appends (``Resource/appendingToDefaults()``).
        public var headerFields: HTTPFields
        /// Query items put before every resource's own; a resource's own items of the same name
        /// replace them, unless the resource appends (``Resource/appendingToDefaults()``).
        public var queryItems: [URLQueryItem]
        /// Decodes response bodies.
        public var decoder: JSONDecoder
        /// Whether the elements of a top-level response array that do not decode are dropped, so
        /// that one malformed record does not hide a whole list, rather than failing the response;
        /// a resource may say otherwise (``Resource/lossyArrays(_:)``). Inside a model,
        /// ``LossyArray`` does the same for one property.
        public var lossyArrays: Bool
        /// Encodes `Encodable` request bodies.
        public var encoder: JSONEncoder
        /// How long one exchange may take before it fails as ``TransportFailure/timedOut``; `nil` leaves it to
        /// the transport.
        public var timeout: Duration?
        /// The clock that measures ``timeout``; tests may pass a test clock.
        public var clock: any Clock<Duration>
        /// Statuses that count as success; any other raises ``APIError/unacceptableStatus(_:)``.
        public var acceptableStatuses: Range<Int>
        /// The type of the API's error body, decoded into the value of an unaccepted response
        /// (``APIError/unacceptableStatus(_:)``).
        public var errorBodyType: (any (Decodable & Sendable).Type)?
        /// Receives a debug line for every request and response.
        public var logger: Logger
        /// What the debug log hides.
        public var redaction: LogRedaction
        /// Steps every request passes through, in order, before the transport.
        public var interceptors: [any Interceptor]
        /// When failed exchanges are tried again; `nil` never retries.
        public var retry: RetryPolicy?
        /// Hears of every failed request.
        public var delegate: (any APIClientDelegate)?
        /// Where responses are kept for the cache policies to serve again; `nil` caches nothing.
        public var cache: ResponseCache?
        /// When the cache answers, for reads whose resource does not set its own policy: HTTP's
        /// rules by default.
        public var cachePolicy: CachePolicy
        /// How many redirects in a row the client follows, 20 by default as URLSession; one more
        /// fails the request as ``TransportFailure/tooManyRedirects``. `nil` follows none: the
        /// `3xx` response is the answer.
        ///
        /// A followed redirect is a request of its own, sent through the transport (and so recorded
        /// by a stub registry's journal) with the client's cookies for its URL. `301` and `302` turn
        /// a `POST` into a `GET` without a body, `303` turns any method but `HEAD` into a `GET`, and
        /// `307` and `308` keep the method and the body, as URLSession does.
        public var redirectLimit: Int?
        /// Whether the client keeps the cookies responses set and sends them back, in a store of
        /// its own (``APIClient/cookieStorage``), as a URLSession does.
        public var handlesCookies: Bool

        /// Creates a configuration; every setting has a working default.
        public init(
            headerFields: HTTPFields = [:],
            queryItems: [URLQueryItem] = [],
            decoder: JSONDecoder = JSONDecoder(),
            lossyArrays: Bool = false,
            encoder: JSONEncoder = JSONEncoder(),
            timeout: Duration? = .seconds(60),
            clock: any Clock<Duration> = ContinuousClock(),
            acceptableStatuses: Range<Int> = 200..<300,
            errorBodyType: (any (Decodable & Sendable).Type)? = nil,
            logger: Logger = Logger(label: "decoy.client"),
            redaction: LogRedaction = LogRedaction(),
            interceptors: [any Interceptor] = [],
            retry: RetryPolicy? = nil,
            delegate: (any APIClientDelegate)? = nil,
            cache: ResponseCache? = nil,
            cachePolicy: CachePolicy = .http,
            redirectLimit: Int? = 20,
            handlesCookies: Bool = true
        ) {
            self.headerFields = headerFields
            self.queryItems = queryItems
            self.decoder = decoder
            self.lossyArrays = lossyArrays
            self.encoder = encoder
            self.timeout = timeout
            self.clock = clock
            self.acceptableStatuses = acceptableStatuses
            self.errorBodyType = errorBodyType
            self.logger = logger
            self.redaction = redaction
            self.interceptors = interceptors
            self.retry = retry
            self.delegate = delegate
            self.cache = cache
            self.cachePolicy = cachePolicy
            precondition(redirectLimit.map { $0 >= 0 } ?? true, "a redirect limit cannot be negative")
            self.redirectLimit = redirectLimit
            self.handlesCookies = handlesCookies
        }
    }
}
