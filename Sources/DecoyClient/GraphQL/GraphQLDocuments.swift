public import Foundation

/// Where the `.graphql` files of ``GraphQLOperation``s are: a folder, or a bundle's resources.
public struct GraphQLDocuments: Sendable {
    /// The folder the files are in.
    public let folder: URL

    /// Documents in `folder`.
    public init(folder: URL) {
        self.folder = folder
    }

    /// Documents among `bundle`'s resources, in `subdirectory` when given.
    public init(bundle: Bundle, subdirectory: String? = nil) {
        let resources = bundle.resourceURL ?? bundle.bundleURL
        folder = subdirectory.map { resources.appending(path: $0) } ?? resources
    }

    /// The text of the document `name`.graphql.
    ///
    /// Read on each request rather than kept: the files are small, and an edited document is
    /// picked up without a new client.
    public func text(named name: String) throws(APIError) -> String {
        let file = folder.appending(path: "\(name).graphql")
        do {
            return try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw .invalidRequest(reason: "no GraphQL document \(file.path): \(error)")
        }
    }
}
