/// A GraphQL query or mutation whose text is a `.graphql` file named after the type.
///
/// ```swift
/// // HeroName.graphql: query HeroName($episode: Episode) { hero(episode: $episode) { name } }
/// struct HeroName: GraphQLOperation {
///     struct Output: Decodable, Sendable { let hero: Hero }
///     let variables: [String: String]
/// }
/// let hero = try await client.send(.graphQL(HeroName(variables: ["episode": "JEDI"]), documents: documents)).hero
/// ```
public protocol GraphQLOperation: Sendable {
    /// The operation's variables, encoded as the JSON object `variables`.
    associatedtype Variables: Encodable & Sendable = [String: String]
    /// What the reply's `data` decodes to.
    associatedtype Output: Decodable & Sendable

    /// The values of the operation's variables.
    var variables: Variables { get }

    /// The name of the document file, without `.graphql`; the type's name by default.
    static var documentName: String { get }
}

extension GraphQLOperation {
    /// The type's name.
    public static var documentName: String { String(describing: Self.self) }
}

extension GraphQLOperation where Variables == [String: String] {
    /// No variables.
    public var variables: [String: String] { [:] }
}
