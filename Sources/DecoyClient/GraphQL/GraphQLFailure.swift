public import Foundation

/// A GraphQL reply that carried `errors`, with whatever `data` came along.
public struct GraphQLFailure: Sendable {
    /// The errors, in the order the server listed them.
    public let errors: [GraphQLError]
    /// The part of the result the server could still produce, when it decoded.
    public let partialData: (any Sendable)?
    /// The raw reply.
    public let body: Data

    /// Creates a failure from a reply's errors.
    public init(errors: [GraphQLError], partialData: (any Sendable)? = nil, body: Data) {
        self.errors = errors
        self.partialData = partialData
        self.body = body
    }

    /// The partial data as `type`, when it decoded as that.
    public func partialData<Output>(as type: Output.Type) -> Output? {
        partialData as? Output
    }
}

/// One entry of a GraphQL reply's `errors`.
public struct GraphQLError: Decodable, Sendable, Hashable {
    /// A place in the document.
    public struct Location: Decodable, Sendable, Hashable {
        /// The line, from 1.
        public let line: Int
        /// The column, from 1.
        public let column: Int

        /// A place at `line` and `column`.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    /// What went wrong.
    public let message: String
    /// Where in the document.
    public let locations: [Location]
    /// The result field it concerns, as keys and list indices (written in decimal).
    public let path: [String]

    private enum CodingKeys: String, CodingKey { case message, locations, path }

    /// An error as a server would list it.
    public init(message: String, locations: [Location] = [], path: [String] = []) {
        self.message = message
        self.locations = locations
        self.path = path
    }

    /// Decodes an error; path entries may be keys or list indices.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        message = try container.decode(String.self, forKey: .message)
        locations = try container.decodeIfPresent([Location].self, forKey: .locations) ?? []
        path = try container.decodeIfPresent([PathEntry].self, forKey: .path)?.map(\.text) ?? []
    }

    private struct PathEntry: Decodable {
        let text: String
        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            text = try (try? value.decode(Int.self)).map(String.init) ?? value.decode(String.self)
        }
    }
}
