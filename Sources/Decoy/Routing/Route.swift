public import HTTPTypes

/// Which requests a stub answers: a method, a path pattern and optional matchers.
///
/// Paths are templates: literal segments, `{name}` for any one segment, `*` for any one
/// segment, and `**` as the last segment for any rest of the path. A regular expression over
/// the whole path is the last resort.
///
/// ```swift
/// Route.get("/users/{id}")
/// Route.get("/users").target(.equalTo("/users?page=2"))
/// Route.post("/orders").header(.contentType, .contains("json")).body(.contains("\"sku\""))
/// Route.get(matching: #"/reports/\d{4}"#)
/// ```
public struct Route: Sendable, Hashable {
    /// How the path is written: which initialiser made the route.
    package enum PathSyntax: Sendable, Hashable {
        /// Segments with `{name}`, `*` and a trailing `**`.
        case template
        /// A regular expression that must match the whole path.
        case regularExpression
        /// Exactly the path as written, `{`, `}` and `*` included; WireMock's `urlPath`.
        case exact
    }

    /// The fields, shared by every copy of the route, which goes into every match, answer and journal entry.
    private final class Storage: Sendable {
        let method: HTTPRequest.Method?
        let path: String
        let pathSyntax: PathSyntax
        let pathTemplate: String?
        let matchers: [RequestMatcher]
        let priority: Int
        let scenario: Scenario?
        let webhooks: [Webhook]

        init(
            method: HTTPRequest.Method?, path: String, pathSyntax: PathSyntax, pathTemplate: String?,
            matchers: [RequestMatcher], priority: Int, scenario: Scenario?, webhooks: [Webhook]
        ) {
            self.method = method
            self.path = path
            self.pathSyntax = pathSyntax
            self.pathTemplate = pathTemplate
            self.matchers = matchers
            self.priority = priority
            self.scenario = scenario
            self.webhooks = webhooks
        }
    }

    private var storage: Storage

    /// A changed route gets new storage; routes change only while they are being built.
    private mutating func update(
        method: HTTPRequest.Method?? = nil, path: String? = nil, pathSyntax: PathSyntax? = nil,
        pathTemplate: String?? = nil, matchers: [RequestMatcher]? = nil,
        priority: Int? = nil, scenario: Scenario?? = nil, webhooks: [Webhook]? = nil
    ) {
        storage = Storage(
            method: method ?? storage.method, path: path ?? storage.path, pathSyntax: pathSyntax ?? storage.pathSyntax,
            pathTemplate: pathTemplate ?? storage.pathTemplate,
            matchers: matchers ?? storage.matchers, priority: priority ?? storage.priority,
            scenario: scenario ?? storage.scenario, webhooks: webhooks ?? storage.webhooks
        )
    }

    /// The method to match; `nil` matches any.
    public var method: HTTPRequest.Method? {
        get { storage.method }
        set { update(method: .some(newValue)) }
    }
    /// The path pattern.
    public var path: String {
        get { storage.path }
        set { update(path: newValue) }
    }
    /// How ``path`` is written.
    package var pathSyntax: PathSyntax {
        get { storage.pathSyntax }
        set { update(pathSyntax: newValue) }
    }
    /// The path template the route was written as, where ``path`` is a regular expression made
    /// from it to match what Decoy's templates cannot (OpenAPI's `/Accounts/{Sid}.json`): the route
    /// matches by the expression and is named by the template, in its description and wherever
    /// that shows (404s, logs, the admin API, the dashboard).
    package var pathTemplate: String? {
        get { storage.pathTemplate }
        set { update(pathTemplate: .some(newValue)) }
    }
    /// Further conditions on the query, header fields and body; all must hold.
    public var matchers: [RequestMatcher] {
        get { storage.matchers }
        set { update(matchers: newValue) }
    }
    /// Lower numbers win when several routes match; ties go to the most recently registered.
    public var priority: Int {
        get { storage.priority }
        set { update(priority: newValue) }
    }
    /// The scenario state the route requires, and the state it moves the scenario to when it answers.
    package var scenario: Scenario? {
        get { storage.scenario }
        set { update(scenario: .some(newValue)) }
    }
    /// The requests sent after the route's stub answers, as WireMock's `webhook` post-serve action sends them.
    package var webhooks: [Webhook] {
        get { storage.webhooks }
        set { update(webhooks: newValue) }
    }

    /// The priority routes get unless given another; WireMock's default.
    public static let defaultPriority = 5

    /// A route whose path is a template, WireMock's `urlPathTemplate`: literal segments, `{name}`
    /// or `*` for any one segment, and `**` as the last segment for any rest of the path.
    public init(
        method: HTTPRequest.Method?, path: String, matchers: [RequestMatcher] = [],
        priority: Int = Route.defaultPriority
    ) {
        self.init(method: method, path: path, pathSyntax: .template, matchers: matchers, priority: priority)
    }

    /// A route whose path is exactly `exactPath`, `{`, `}` and `*` included: WireMock's `urlPath`.
    public init(
        method: HTTPRequest.Method?, exactPath: String, matchers: [RequestMatcher] = [],
        priority: Int = Route.defaultPriority
    ) {
        self.init(method: method, path: exactPath, pathSyntax: .exact, matchers: matchers, priority: priority)
    }

    /// A route whose whole path matches the regular expression `pathPattern`: WireMock's
    /// `urlPathPattern`, the last resort.
    public init(
        method: HTTPRequest.Method?, pathPattern: String, matchers: [RequestMatcher] = [],
        priority: Int = Route.defaultPriority
    ) {
        self.init(
            method: method, path: pathPattern, pathSyntax: .regularExpression, matchers: matchers, priority: priority)
    }

    /// A route whose path is written in `pathSyntax`; `pathTemplate` names a regular expression's
    /// route by the template it was made from.
    package init(
        method: HTTPRequest.Method?, path: String, pathSyntax: PathSyntax, pathTemplate: String? = nil,
        matchers: [RequestMatcher] = [], priority: Int = Route.defaultPriority
    ) {
        storage = Storage(
            method: method, path: path, pathSyntax: pathSyntax, pathTemplate: pathTemplate, matchers: matchers,
            priority: priority, scenario: nil, webhooks: [])
    }

    /// The registration's own route, told apart from equal ones in one pointer: a journal entry
    /// holds the very route of the stub that answered, so requests are counted per stub without
    /// hashing every field of every entry's route.
    package var identity: ObjectIdentifier { ObjectIdentifier(storage) }

    /// Routes are equal when their fields are.
    public static func == (lhs: Route, rhs: Route) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.method == rhs.method && lhs.path == rhs.path && lhs.pathSyntax == rhs.pathSyntax
                && lhs.pathTemplate == rhs.pathTemplate && lhs.matchers == rhs.matchers
                && lhs.priority == rhs.priority && lhs.scenario == rhs.scenario && lhs.webhooks == rhs.webhooks)
    }

    /// Hashes the fields.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(path)
        hasher.combine(pathSyntax)
        hasher.combine(pathTemplate)
        hasher.combine(matchers)
        hasher.combine(priority)
        hasher.combine(scenario)
        hasher.combine(webhooks)
    }

    /// `GET` requests to `path`.
    public static func get(_ path: String) -> Route { Route(method: .get, path: path) }
    /// `POST` requests to `path`.
    public static func post(_ path: String) -> Route { Route(method: .post, path: path) }
    /// `PUT` requests to `path`.
    public static func put(_ path: String) -> Route { Route(method: .put, path: path) }
    /// `PATCH` requests to `path`.
    public static func patch(_ path: String) -> Route { Route(method: .patch, path: path) }
    /// `DELETE` requests to `path`.
    public static func delete(_ path: String) -> Route { Route(method: .delete, path: path) }
    /// `HEAD` requests to `path`.
    public static func head(_ path: String) -> Route { Route(method: .head, path: path) }
    /// `OPTIONS` requests to `path`.
    public static func options(_ path: String) -> Route { Route(method: .options, path: path) }
    /// Requests with any method to `path`.
    public static func any(_ path: String) -> Route { Route(method: nil, path: path) }
    /// `GET` requests whose whole path matches the regular expression `pattern`.
    public static func get(matching pattern: String) -> Route {
        Route(method: .get, pathPattern: pattern)
    }

    /// A copy that also requires the query parameter `name` to satisfy `matcher`.
    public func query(_ name: String, _ matcher: ValueMatcher) -> Route { adding(.query(name, matcher)) }
    /// A copy that also requires the header field `name` to satisfy `matcher`.
    public func header(_ name: HTTPField.Name, _ matcher: ValueMatcher) -> Route { adding(.header(name, matcher)) }
    /// A copy that also requires the cookie `name` to satisfy `matcher`.
    public func cookie(_ name: String, _ matcher: ValueMatcher) -> Route { adding(.cookie(name, matcher)) }
    /// A copy that also requires the body, as UTF-8 text, to satisfy `matcher`.
    public func body(_ matcher: ValueMatcher) -> Route { adding(.body(matcher)) }
    /// A copy that also requires the form body's parameter `name` to satisfy `matcher`.
    public func formParameter(_ name: String, _ matcher: ValueMatcher) -> Route {
        adding(.formParameter(name, matcher))
    }
    /// A copy that also requires the request target, path and query as sent, to satisfy `matcher`.
    public func target(_ matcher: ValueMatcher) -> Route { adding(.target(matcher)) }

    /// The state every scenario starts in, and returns to when the registry resets scenarios;
    /// WireMock's `Started`.
    public static let scenarioStarted = "Started"

    /// A copy that answers only while the scenario `name` is in `requiredState` (any state when
    /// `nil`; ``scenarioStarted`` at first) and, when it answers, moves the scenario to `newState`.
    ///
    /// ```swift
    /// try registry.register(
    ///     StubResponse(json: "[]"),
    ///     for: Route.get("/cart").scenario("checkout", requiredState: Route.scenarioStarted))
    /// try registry.register(
    ///     StubResponse(status: .created), for: Route.post("/cart").scenario("checkout", newState: "filled"))
    /// try registry.register(
    ///     StubResponse(json: #"[{"sku": "A-1"}]"#),
    ///     for: Route.get("/cart").scenario("checkout", requiredState: "filled"))
    /// ```
    public func scenario(_ name: String, requiredState: String? = nil, newState: String? = nil) -> Route {
        var copy = self
        copy.scenario = Scenario(name: name, requiredState: requiredState, newState: newState)
        return copy
    }

    /// A copy that also sends a request each time the route's stub answers, as WireMock's
    /// `webhook` post-serve action does: `method` to `url`, with `headerFields` and `body`,
    /// `delay` after the answer, which it never delays.
    ///
    /// The URL, the header values and the body are templates in which the request that was
    /// answered goes by `originalRequest` (`{{originalRequest.path.[1]}}`,
    /// `{{jsonPath originalRequest.body '$.id'}}`), as in WireMock. It goes only to a host the
    /// registry allows (see ``StubRegistry/webhookAllowedHosts``).
    ///
    /// ```swift
    /// try registry.register(
    ///     StubResponse(status: .accepted),
    ///     for: try Route.post("/orders/{id}").webhook(
    ///         .post, url: "http://127.0.0.1:9000/callbacks", body: #"{"order": "{{originalRequest.path.[1]}}"}"#))
    /// ```
    ///
    /// - Throws: ``DecoyError/invalidTemplate(line:column:helper:reason:)`` naming the part whose
    ///   template is malformed.
    public func webhook(
        _ method: HTTPRequest.Method, url: String, headerFields: HTTPFields = [:], body: String? = nil,
        delay: Delay = .none
    ) throws(DecoyError) -> Route {
        webhook(try Webhook(method, url: url, headerFields: headerFields, body: body, delay: delay))
    }

    /// A copy that also sends `webhook` each time the route's stub answers.
    package func webhook(_ webhook: Webhook) -> Route {
        var copy = self
        copy.webhooks.append(webhook)
        return copy
    }

    /// A copy with another priority.
    public func priority(_ priority: Int) -> Route {
        var copy = self
        copy.priority = priority
        return copy
    }

    private func adding(_ matcher: RequestMatcher) -> Route {
        var copy = self
        copy.matchers.append(matcher)
        return copy
    }
}

extension Route: CustomStringConvertible {
    /// `METHOD path` followed by the matchers, as messages show a route.
    public var description: String {
        var text: [UInt8] = []
        appendDescription(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends ``description`` to `text`, as UTF-8, as the unmatched 404 writes its closest routes.
    package func appendDescription(to text: inout [UInt8]) {
        // Appended, not interpolated: every unmatched 404 shows up to three routes, and
        // interpolating the method goes through the generic `description` path.
        text.append(utf8: method?.rawValue ?? "ANY")
        if let pathTemplate {
            text.append(utf8: " ")
            text.append(utf8: pathTemplate)
        } else {
            text.append(utf8: pathSyntax == .regularExpression ? " ~" : " ")
            text.append(utf8: path)
        }
        if !matchers.isEmpty { text.append(utf8: " where \(matchers.map(\.description).joined(separator: ", "))") }
        if let scenario { text.append(utf8: " \(scenario)") }
    }
}

extension Route {
    /// Whether a request's method, path and query decide alone how it differs from this route:
    /// no matcher on header fields, cookies or the body, and no scenario state to be in.
    var dependsOnRequestLineOnly: Bool {
        scenario?.requiredState == nil
            && matchers.allSatisfy { matcher in
                switch matcher {
                case .query, .target: true
                case .header, .cookie, .body, .formParameter: false
                }
            }
    }
}
