/// How long a timing test waits before it calls a wait endless.
///
/// A full `swift test` keeps both cores of a small machine busy for seconds, and a task can wait
/// that long for a thread (a test started first can wait most of the run's 25 s). So upper
/// bounds only catch waits that would never end, and stay below the long delays they guard
/// against (ten minutes); the lower bounds carry the claims.
let endlessWait: Duration = .seconds(60)
