/// Time elapsed on any clock since the stopwatch was made, as a plain `Duration`, so that
/// deadlines can be kept without knowing the clock's instant type.
struct Stopwatch: Sendable {
    let elapsed: @Sendable () -> Duration

    init<C: Clock<Duration>>(_ clock: C) {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
    }
}
