public import Decoy
public import Foundation

extension RequestRecording {
    /// Expects exactly one request matching `route`, with a JSON body that decodes as `type`, and
    /// returns that body; otherwise records a test failure that says why and returns `nil`.
    ///
    /// ```swift
    /// let sent = registry.expectBody(of: .post("/users"), as: User.self)
    /// ```
    public func expectBody<Body: Decodable>(
        of route: Route, as type: Body.Type, decoder: JSONDecoder = JSONDecoder(),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Body? {
        expectBodies(
            of: route, as: type, count: .once, decoder: decoder, fileID: fileID, filePath: filePath, line: line,
            column: column
        ).first
    }

    /// Expects the number of requests matching `route` to satisfy `count`, each with a JSON body
    /// that decodes as `type`, and returns the bodies that decode, oldest first; records a test
    /// failure for the count and for every body that does not decode.
    public func expectBodies<Body: Decodable>(
        of route: Route, as type: Body.Type, count: CallCount = .atLeast(1), decoder: JSONDecoder = JSONDecoder(),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> [Body] {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let pattern = site.pattern(for: route),
            let matching = ReceivedRequests(self).matching(pattern, count: count, site: site)
        else { return [] }
        return matching.compactMap { entry in
            do {
                return try entry.request.decodeBody(as: type, decoder: decoder)
            } catch {
                site.fail(BodyMismatch(entry: entry, type: type, error: error).description)
                return nil
            }
        }
    }
}
