import Atomics

/// The delay of every stub whose response sets none, shared by a registry and its engines so that
/// a change, such as WireMock's global fixed delay set over the admin API, reaches a running server.
///
/// Every matched request without a delay of its own reads it, so it is one atomic load of an
/// immutable box rather than a lock; a change swaps the box.
final class DelaySetting: Sendable {
    private final class Box: AtomicReference, Sendable {
        let delay: Delay

        init(_ delay: Delay) { self.delay = delay }
    }

    private let box: ManagedAtomic<Box>

    init(_ delay: Delay) {
        box = ManagedAtomic(Box(delay))
    }

    var value: Delay {
        get { box.load(ordering: .acquiring).delay }
        set { box.store(Box(newValue), ordering: .releasing) }
    }
}
