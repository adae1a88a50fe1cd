import CoreFoundation
import Foundation

/// The monotonic clock read as whole nanoseconds, for what the server times on every request:
/// `ContinuousClock`'s instants and `Duration`s do 128-bit arithmetic that costs more than
/// reading the clock.
enum Nanoseconds {
    /// Now, precisely: the request log's times.
    static var now: Int64 { read(CLOCK_MONOTONIC) }

    /// Now, to within a few milliseconds, for deadlines counted in seconds: Linux's coarse
    /// clock reads the last tick's time without asking the hardware.
    static var roughlyNow: Int64 {
        #if os(Linux)
            read(CLOCK_MONOTONIC_COARSE)
        #else
            read(CLOCK_MONOTONIC)
        #endif
    }

    static func of(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    private static func read(_ clock: clockid_t) -> Int64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
