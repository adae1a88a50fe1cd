package import Decoy
package import HTTPTypes

/// One operation of an OpenAPI document: a method on a path template.
package struct OpenAPIOperation: Sendable, CustomStringConvertible {
    /// The `operationId`; `nil` when the document gives none, and the operation is only served from its examples.
    package let id: String?
    /// The method.
    package let method: HTTPRequest.Method
    /// The path template as Decoy's routes write it, the base path first: `/users/{id}`.
    package let path: String
    /// Where the operation is in the document, as a JSON pointer: `#/paths/~1users~1{id}/get`.
    package let pointer: String
    /// The parameters requests are checked against, path item's and operation's together.
    let parameters: [Parameter]
    /// The request body requests are checked against; `nil` when the operation takes none.
    let body: Body?
    /// The responses the document describes, in its order.
    let responses: [Response]

    /// The route the operation's requests take: a template of whole segments where the path is
    /// one, a regular expression where a template sits inside a segment (`/Accounts/{Sid}.json`),
    /// named by the path template all the same.
    package var route: Route { Self.route(method, path) }

    static func route(_ method: HTTPRequest.Method?, _ path: String) -> Route {
        let template = PathTemplate(path)
        if let routePath = template.routePath { return Route(method: method, path: routePath) }
        return Route(method: method, path: template.expression, pathSyntax: .regularExpression, pathTemplate: path)
    }

    /// `getUser (GET /users/{id})`.
    package var description: String { "\(id ?? "an operation without operationId") (\(method) \(path))" }

    /// A parameter: where it goes and the schema of its value.
    struct Parameter: Sendable {
        enum Location: String, Sendable { case path, query, header, cookie }
        let name: String
        let location: Location
        let required: Bool
        /// How its values are written (OpenAPI's `style`): `form`, `simple`, `label`, `matrix`,
        /// `spaceDelimited`, `pipeDelimited` or `deepObject`.
        let style: String
        /// Whether each value of an array comes as a parameter of its own (OpenAPI's `explode`).
        let explode: Bool
        /// Where the parameter is in the document.
        let pointer: String
        /// The pointer to its schema; `nil` when it has none Decoy checks.
        let schema: String?
    }

    /// A request body: whether it must be there and the schema of each media type.
    struct Body: Sendable {
        let required: Bool
        /// Where the request body is in the document.
        let pointer: String
        /// Media types in the document's order, each with the pointer to its schema.
        let content: [(mediaType: String, schema: String?)]
    }

    /// A response: the status it answers with and its examples per media type.
    struct Response: Sendable {
        enum Status: Sendable, Equatable {
            case code(Int)
            /// `2XX`: any status of that class.
            case range(Int)
            case `default`
        }
        let status: Status
        /// Where the response is in the document, its reference followed.
        let pointer: String
        let content: [(mediaType: String, examples: [Example])]
        /// The header fields the response must carry, each with where the document requires it.
        var requiredHeaders: [(name: String, pointer: String)] = []
    }

    /// An example body, named where the document names it.
    struct Example: Sendable {
        /// The name `Prefer: example=` asks for it by: its key in `examples`, and `example` for the
        /// media type's `example`; `nil` for one made from the schema.
        let name: String?
        /// Where the document gives it; `nil` for one made from the schema.
        let pointer: String?
        let body: [UInt8]
        /// Whether it passes the response's schema: only such an example is served unless asked for by name.
        var passes = true
    }

    /// The statuses the operation declares, in the document's order: `200, 4XX, default`.
    var declaredStatuses: String {
        responses.map { response in
            switch response.status {
            case .code(let code): "\(code)"
            case .range(let first): "\(first)XX"
            case .default: "default"
            }
        }.joined(separator: ", ")
    }

    /// Whether an example the document gives for a response misses the response's schema, and
    /// is served only when asked for by name.
    package var hasExamplesMissingTheirSchemas: Bool {
        responses.contains { $0.content.contains { $0.examples.contains { !$0.passes } } }
    }
}
