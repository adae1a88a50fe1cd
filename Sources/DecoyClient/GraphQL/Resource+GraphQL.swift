import Foundation

extension Resource where Value: Decodable & Sendable {
    /// `POST path` with `{"query": …, "variables": …}`, the query read from the operation's
    /// document; the reply's `data` decodes to the value, and its `errors` fail the request with
    /// ``APIError/graphQL(_:)``.
    public static func graphQL<Operation: GraphQLOperation>(
        _ operation: Operation, documents: GraphQLDocuments, path: String = "/graphql"
    ) throws(APIError) -> Resource where Operation.Output == Value {
        let body = GraphQLBody(query: try documents.text(named: Operation.documentName), variables: operation.variables)
        return Resource.post(path, body: body).decoded { data, context in
            let reply = try context.decoder.decode(GraphQLErrors.self, from: data)
            guard reply.errors.isEmpty else {
                let partial = try? context.decoder.decode(Value.self, from: data, envelope: .rootKeys(["data"]))
                throw APIError.graphQL(GraphQLFailure(errors: reply.errors, partialData: partial, body: data))
            }
            return try context.decoder.decode(Value.self, from: data, envelope: .rootKeys(["data"]))
        }
    }
}

private struct GraphQLBody<Variables: Encodable & Sendable>: Encodable, Sendable {
    let query: String
    let variables: Variables
}

private struct GraphQLErrors: Decodable {
    let errors: [GraphQLError]

    private enum CodingKeys: String, CodingKey { case errors }

    init(from decoder: any Decoder) throws {
        errors =
            try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent([GraphQLError].self, forKey: .errors) ?? []
    }
}
