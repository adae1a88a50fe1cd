/// One entry of a GraphQL reply's `errors`, as ``APIError/graphQL(_:partialData:body:)`` lists them.
public struct GraphQLError: Decodable, Sendable {
    /// What went wrong.
    public let message: String
    /// Where in the document, lines and columns counted from 1.
    public let locations: [(line: Int, column: Int)]
    /// The result field it concerns, as keys and list indices (written in decimal).
    public let path: [String]

    private enum CodingKeys: String, CodingKey { case message, locations, path }

    /// An error as a server would list it.
    public init(message: String, locations: [(line: Int, column: Int)] = [], path: [String] = []) {
        self.message = message
        self.locations = locations
        self.path = path
    }

    /// Decodes an error; path entries may be keys or list indices.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        message = try container.decode(String.self, forKey: .message)
        locations =
            try container.decodeIfPresent([Location].self, forKey: .locations)?.map { ($0.line, $0.column) } ?? []
        path = try container.decodeIfPresent([PathEntry].self, forKey: .path)?.map(\.text) ?? []
    }

    private struct Location: Decodable {
        let line: Int
        let column: Int
    }

    private struct PathEntry: Decodable {
        let text: String
        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            text = try (try? value.decode(Int.self)).map(String.init) ?? value.decode(String.self)
        }
    }
}
