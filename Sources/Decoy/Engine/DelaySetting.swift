import Atomics
import DecoyClient

/// The delay of every stub whose response sets none, shared by a registry and its engines so that
/// a change, such as WireMock's global fixed delay set over the admin API, reaches a running server.
///
/// Every matched request without a delay of its own reads it, from every server thread at once,
/// so the usual case, no default delay, is one plain atomic load of a flag: loading the strong
/// reference to the box writes to its cache line, which the server's threads would then pass back
/// and forth on every request. Only with a default delay is the immutable box loaded; a change
/// swaps the box.
final class DelaySetting: Sendable {
    private final class Box: AtomicReference, Sendable {
        let delay: Delay

        init(_ delay: Delay) { self.delay = delay }
    }

    private let box: ManagedAtomic<Box>
    /// Whether `box` holds ``Delay/none``; stored after the box, so that a reader sees either
    /// the setting before a change or the one after.
    private let isNone: ManagedAtomic<Bool>
    /// Held by a change, so that two at once cannot leave the flag saying what the box does not.
    private let changing = Mutex(())

    init(_ delay: Delay) {
        box = ManagedAtomic(Box(delay))
        isNone = ManagedAtomic(delay == .none)
    }

    var value: Delay {
        get { isNone.load(ordering: .acquiring) ? .none : box.load(ordering: .acquiring).delay }
        set {
            changing.withLock { _ in
                box.store(Box(newValue), ordering: .releasing)
                isNone.store(newValue == .none, ordering: .releasing)
            }
        }
    }
}
