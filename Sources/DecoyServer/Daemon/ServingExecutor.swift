import DecoyClient
import Foundation

/// Where the servers' tasks run: a few threads of Decoy's own, beside Swift's global pool.
///
/// Those tasks await a delay, a stream's next piece, a closure stub or a webhook's, for clients
/// and receivers on other threads and in other processes, whose timeouts run whatever this
/// process does. On the global pool they waited behind the tests of the process the server lives
/// in: in Decoy's own suite a task made as the suite started ran 27 s later, and an event
/// stream's first event, due at once, came after its client's 15 s timeout. Their sleeps end here
/// too (``Clock/sleepOnTimer(until:)``).
///
/// Every server shares one set of threads, which take the jobs in the order they come. Not a
/// serial queue per task, which dispatch would run on a thread each (in a trial, 1,000 tasks
/// woken together made 259 threads), nor a few serial queues dealt in turn, where a job waits
/// behind another on its queue while a thread is idle.
final class ServingExecutor: Sendable {
    private let jobs = Mutex(Jobs())
    /// Counts the jobs waiting, and wakes a thread for each.
    private let waiting = DispatchSemaphore(value: 0)

    /// As many threads as the machine has cores: a thread a job holds is one fewer for the others,
    /// and jobs that hold threads are the stubs' own.
    private static let shared = ServingExecutor(threadCount: max(2, ProcessInfo.processInfo.activeProcessorCount))

    private init(threadCount: Int) {
        for index in 0..<threadCount {
            let thread = Thread { [self] in
                while true {
                    waiting.wait()
                    run(jobs.withLock { $0.take() })
                }
            }
            thread.name = "Decoy serving \(index)"
            thread.start()
        }
    }

    /// Starts `operation` in a task that prefers the servers' threads; on the global pool before
    /// macOS 15 and iOS 18, which have no task executors.
    @discardableResult
    static func task(_ operation: sending @escaping () async -> Void) -> Task<Void, Never> {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return Task(executorPreference: shared, operation: operation)
        }
        return Task(operation: operation)
    }

    private func run(_ job: UnownedJob) {
        // Only jobs enqueued by a task executor come here, so only where there are task executors.
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        job.runSynchronously(on: asUnownedTaskExecutor())
    }

    /// The jobs waiting, first in first out.
    private struct Jobs {
        private var waiting: [UnownedJob] = []
        private var next = 0

        mutating func put(_ job: UnownedJob) {
            waiting.append(job)
        }

        /// The oldest job; there is one for every time the semaphore let a thread through.
        mutating func take() -> UnownedJob {
            let job = waiting[next]
            next += 1
            // Dropped once all are taken, or once they are most of the array, so that neither
            // the array nor the cost of dropping grows with the jobs ever run.
            if next == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                next = 0
            } else if next >= 64, next * 2 >= waiting.count {
                waiting.removeFirst(next)
                next = 0
            }
            return job
        }
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension ServingExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.put(job) }
        waiting.signal()
    }
}
