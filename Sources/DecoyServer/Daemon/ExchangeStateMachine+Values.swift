import Decoy
import Foundation
import HTTPTypes

// The values the machine's states, actions and resumptions carry. Each is `Equatable`, so that a
// test asserts a whole exchange as a sequence of actions. What the engine and the server hand over
// has no equality of its own (a delivery holds the engine's clock and random source, a body's
// producer is a closure): the boxes below compare what the daemon sends of it, or its identity.

extension ExchangeStateMachine {
    /// Why a head is answered at once and its connection closed after.
    enum HeadRefusal: Equatable, Sendable {
        /// It breaks RFC 9112: answered with `status` and `reason`.
        case malformed(HTTPResponse.Status, reason: String)
        /// A field line with an empty name ended it (`400`).
        case emptyFieldName
        /// It announces a body larger than the server accepts (`413`), answered before the body
        /// is read.
        case bodyTooLarge
        /// It came over the connection limit (`503`).
        case overConnectionLimit
    }

    /// A streamed body on its way out: its producer and the piece being sent.
    ///
    /// Only the content reader's events move ``piece`` and ``sent``; the task awaiting the next
    /// piece hands it over in its ``Resumption``, and never touches the machine outside the lock
    /// under which it resumes the connection (``SuspendedExchanges``).
    struct Stream: Equatable {
        let body: StreamedBody
        /// The piece being sent, and how much of it is out.
        var piece = Data()
        var sent = 0
    }
}

/// What the server says on its own behalf, as the admin API and the dashboard do: whole, or a head
/// and then a body its producer hands over piece by piece, for as long as it goes on.
enum Reply: Sendable, Equatable {
    case whole(StubResponse)
    case stream(HTTPResponse, StreamedBody)

    /// Equal when what goes out is: the same status, fields and body, or the same producer.
    static func == (lhs: Reply, rhs: Reply) -> Bool {
        switch (lhs, rhs) {
        case (.whole(let lhs), .whole(let rhs)): Replied(lhs) == Replied(rhs)
        case (.stream(let lhsHead, let lhsBody), .stream(let rhsHead, let rhsBody)):
            lhsHead == rhsHead && lhsBody == rhsBody
        default: false
        }
    }
}

/// A ``StubResponse`` the machine hands to the daemon to send as it is; equal to another with the
/// same status, header fields, body and fault, which is what goes out of it.
struct Replied: Equatable, Sendable {
    let response: StubResponse

    init(_ response: StubResponse) { self.response = response }

    static func == (lhs: Replied, rhs: Replied) -> Bool {
        lhs.response.status == rhs.response.status && lhs.response.headerFields == rhs.response.headerFields
            && lhs.response.body == rhs.response.body && lhs.response.fault == rhs.response.fault
    }
}

/// The engine's ``Delivery`` as the machine hands it to the daemon; equal to another of the same
/// response (``Replied``) for the same route, which is what the daemon sends and logs of it.
struct Delivered: Equatable, Sendable {
    let delivery: Delivery

    init(_ delivery: Delivery) { self.delivery = delivery }

    static func == (lhs: Delivered, rhs: Delivered) -> Bool {
        Replied(lhs.delivery.response) == Replied(rhs.delivery.response) && lhs.delivery.route == rhs.delivery.route
    }
}

/// The engine's wait for a delivery it could not make at once. A closure has no identity to
/// compare, and the machine never looks into it, so every wait equals every other: what a test
/// tells apart is that the daemon is to await one.
struct AwaitedDelivery: Equatable, Sendable {
    let wait: @Sendable () async throws -> Delivery

    static func == (_: AwaitedDelivery, _: AwaitedDelivery) -> Bool { true }
}
