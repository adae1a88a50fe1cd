public import Foundation

extension Resource where Value: Decodable & Sendable {
    /// `POST path` with `{"query": …, "variables": …}`, the query being the document
    /// `<operation>.graphql` in `folder`, named after the type that sends it; the reply's `data`
    /// decodes to the value, and its `errors` fail the request with
    /// ``APIError/graphQL(_:partialData:body:)``.
    ///
    /// The document is read each time the request is sent rather than kept: the files are small,
    /// and an edited one is picked up without a new client. A missing one fails the request with
    /// ``APIError/invalidRequest(reason:)``.
    ///
    /// ```swift
    /// // HeroName.graphql: query HeroName($episode: Episode) { hero(episode: $episode) { name } }
    /// struct HeroName: Request {
    ///     struct Output: Decodable, Sendable { let hero: Hero }
    ///     let episode: String
    ///     var resource: Resource<Output> { .graphQL(Self.self, variables: ["episode": episode], in: documents) }
    /// }
    /// ```
    public static func graphQL<Variables: Encodable & Sendable>(
        _ operation: Any.Type, variables: Variables = [String: String](), in folder: URL, path: String = "/graphql"
    ) -> Resource {
        let document = folder.appending(path: "\(operation).graphql")
        return Resource.post(path, body: GraphQLBody(document: document, variables: variables)).with {
            $0.decode = { data, _, context in
                let reply = try context.decoder.decode(GraphQLErrors.self, from: data)
                guard reply.errors.isEmpty else {
                    let partial = try? context.decoder.decode(Value.self, from: data, envelope: .rootKeys(["data"]))
                    throw APIError.graphQL(reply.errors, partialData: partial, body: data)
                }
                return try context.decoder.decode(Value.self, from: data, envelope: .rootKeys(["data"]))
            }
        }
    }
}

/// The body of a GraphQL request, its query read from the document file when it is encoded.
private struct GraphQLBody<Variables: Encodable & Sendable>: Encodable, Sendable {
    let document: URL
    let variables: Variables

    private enum CodingKeys: String, CodingKey { case query, variables }

    func encode(to encoder: any Encoder) throws {
        let query: String
        do {
            query = try String(contentsOf: document, encoding: .utf8)
        } catch {
            throw MissingDocument(file: document, reason: error)
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(query, forKey: .query)
        try container.encode(variables, forKey: .variables)
    }
}

/// A GraphQL document that could not be read.
private struct MissingDocument: Error, CustomStringConvertible {
    let file: URL
    let reason: any Error

    var description: String { "no GraphQL document \(file.path): \(reason)" }
}

private struct GraphQLErrors: Decodable {
    let errors: [GraphQLError]

    private enum CodingKeys: String, CodingKey { case errors }

    init(from decoder: any Decoder) throws {
        errors =
            try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent([GraphQLError].self, forKey: .errors) ?? []
    }
}
