import DecoyClient

/// The delay of every stub whose response sets none, shared by a registry and its engines so that
/// a change, such as WireMock's global fixed delay set over the admin API, reaches a running server.
final class DelaySetting: Sendable {
    private let delay: Mutex<Delay>

    init(_ delay: Delay) {
        self.delay = Mutex(delay)
    }

    var value: Delay {
        get { delay.withLock { $0 } }
        set { delay.withLock { $0 = newValue } }
    }
}
