import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime

extension APIClient {
    /// The events of the `text/event-stream` at `resource`, each event's data decoded as the
    /// resource's value, for as long as the caller reads them.
    ///
    /// When an opened stream ends or breaks, the client reconnects as the EventSource
    /// specification says: after the reconnection time (the last `retry` field, 3 seconds until
    /// one comes), measured on the configuration's clock, sending the last event id in
    /// `Last-Event-ID`. Opening goes through the interceptors, retries, timeout, logging and
    /// failure reports of any request, and its failures end the sequence with their
    /// ``APIError``, as does an answer that is not `200` with `Content-Type: text/event-stream`
    /// and an event whose data does not decode; a `204 No Content` ends it without error.
    /// Nothing is sent until the iteration starts; stopping it (a `break`, or cancelling the task
    /// that reads) closes the stream.
    ///
    /// ```swift
    /// for try await event in client.events(for: Resource<Score>.get("/matches/7/score")) {
    ///     print(event.type, event.value.home, event.value.away)
    /// }
    /// ```
    public func events<Value: Sendable>(for resource: Resource<Value>) -> ServerSentEvents<Value> {
        ServerSentEvents { deliver throws(APIError) in try await self.readEvents(of: resource, to: deliver) }
    }

    /// The reconnection time until a stream sets one (EventSource specification, 9.2.3).
    private static let defaultReconnectionTime = 3_000

    /// Opens the stream, hands each event to `deliver`, and reconnects after each opened stream
    /// ends, until the task is cancelled or opening fails.
    private func readEvents<Value>(
        of resource: Resource<Value>, to deliver: @Sendable (ServerSentEvent<Value>) -> Void
    ) async throws(APIError) {
        var (request, _) = try makeRequest(for: resource)
        request.headerFields[.accept] = "text/event-stream"
        request.headerFields[.cacheControl] = "no-cache"
        var lastEventID = ""
        var reconnectionTime = Self.defaultReconnectionTime
        while true {
            request.headerFields[.lastEventID] = lastEventID.isEmpty ? nil : lastEventID
            let (head, body) = try await stream(request, body: nil, options: resource.options)
            // The server's way to say there is nothing more (EventSource specification, 9.2.3).
            if head.status == .noContent {
                body.cancel()
                return
            }
            guard head.status == .ok, Self.isEventStream(head) else {
                // Accepted, but no event stream: the EventSource specification fails the connection.
                let data = (try? await body.collected()) ?? Data()
                throw report(.unacceptableStatus(Response(unaccepted: head, body: data)), for: request)
            }
            do {
                for try await field in body.map({ ArraySlice($0) }).asDecodedServerSentEvents() {
                    // Each block's id and retry count even when it has no data, and so no event.
                    if let id = field.id { lastEventID = id }
                    if let retry = field.retry { reconnectionTime = Int(retry) }
                    guard let data = field.data else { continue }
                    deliver(try decoded(data, id: field.id, type: field.event, for: resource, in: head, of: request))
                }
            } catch let error as APIError {
                body.cancel()
                throw error
            } catch {
                // A stream that breaks is reconnected, as one that ends; only cancellation stops.
                if Task.isCancelled { throw .transport(.cancelled, underlying: error) }
            }
            if configuration.logger.logLevel <= .debug {
                configuration.logger.debug(
                    "↻ reconnecting \(request.method) \(request.path ?? "/") in \(reconnectionTime) ms")
            }
            do {
                try await configuration.clock.sleep(for: .milliseconds(reconnectionTime))
            } catch {
                throw .transport(.cancelled, underlying: error)
            }
        }
    }

    /// Whether `head` announces an event stream, whatever its parameters.
    private static func isEventStream(_ head: HTTPResponse) -> Bool {
        let type = head.headerFields[.contentType]?.split(separator: ";").first
        return type?.trimmingCharacters(in: .whitespaces).lowercased() == "text/event-stream"
    }

    /// An event of `data` decoded as the resource's value; a failure is reported and thrown.
    private func decoded<Value>(
        _ data: String, id: String?, type: String?, for resource: Resource<Value>, in head: HTTPResponse,
        of request: HTTPRequest
    ) throws(APIError) -> ServerSentEvent<Value> {
        let value: Value
        if let text = data as? Value {
            value = text
        } else {
            let bytes = Data(data.utf8)
            do { value = try decodeBody(bytes, head, for: resource) } catch {
                throw report(APIError(parsing: error, of: bytes), for: request)
            }
        }
        return ServerSentEvent(id: id, type: type ?? "message", data: data, value: value)
    }
}

extension HTTPField.Name {
    /// `Last-Event-ID`, the id of the last event a reconnecting event stream received.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}
