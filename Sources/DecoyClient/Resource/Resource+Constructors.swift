import Foundation
public import HTTPTypes

extension Resource {
    /// `GET path` with query items.
    public static func get(_ path: String, query: KeyValuePairs<String, String> = [:], headerFields: HTTPFields = [:])
        -> Resource
    {
        Resource(
            method: .get, path: path, query: query.map { URLQueryItem(name: $0.key, value: $0.value) },
            headerFields: headerFields)
    }

    /// `HEAD path` with query items: the head a `GET` would get, without its body.
    public static func head(_ path: String, query: KeyValuePairs<String, String> = [:], headerFields: HTTPFields = [:])
        -> Resource
    {
        Resource(
            method: .head, path: path, query: query.map { URLQueryItem(name: $0.key, value: $0.value) },
            headerFields: headerFields)
    }

    /// `POST path`, with a JSON body when `body` is given.
    public static func post(_ path: String, body: (any Encodable & Sendable)? = nil, headerFields: HTTPFields = [:])
        -> Resource
    {
        Resource(method: .post, path: path, headerFields: headerFields, body: body.map(RequestBody.json))
    }

    /// `PUT path`, with a JSON body when `body` is given.
    public static func put(_ path: String, body: (any Encodable & Sendable)? = nil, headerFields: HTTPFields = [:])
        -> Resource
    {
        Resource(method: .put, path: path, headerFields: headerFields, body: body.map(RequestBody.json))
    }

    /// `PATCH path`, with a JSON body when `body` is given.
    public static func patch(_ path: String, body: (any Encodable & Sendable)? = nil, headerFields: HTTPFields = [:])
        -> Resource
    {
        Resource(method: .patch, path: path, headerFields: headerFields, body: body.map(RequestBody.json))
    }

    /// `DELETE path`.
    public static func delete(_ path: String, headerFields: HTTPFields = [:]) -> Resource {
        Resource(method: .delete, path: path, headerFields: headerFields)
    }
}
