import DecoyClient
import Testing

@Suite("Mutex: the package's lock, from iOS 16 and macOS 13")
struct MutexTests {
    struct Failure: Error {}
    final class Witness: Sendable {}

    @Test func incrementsFromManyTasksAllCount() async {
        let count = Mutex(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<250_000 { count.withLock { $0 += 1 } }
                }
            }
        }
        #expect(count.withLock { $0 } == 1_000_000)
    }

    @Test func copiesShareOneValue() {
        let original = Mutex([1])
        let copy = original
        copy.withLock { $0.append(2) }
        #expect(original.withLock { $0 } == [1, 2])
    }

    @Test func aThrowingBodyLeavesItsChangeAndReleasesTheLock() {
        let value = Mutex(0)
        #expect(throws: Failure.self) {
            try value.withLock { (number: inout Int) throws(Failure) in
                number = 1
                throw Failure()
            }
        }
        // A lock left held would block here for good instead of answering.
        #expect(value.withLock { $0 } == 1)
    }

    @Test func theValueIsReleasedWithTheLastCopy() {
        weak var released: Witness?
        do {
            let witness = Witness()
            released = witness
            let held = Mutex<Witness?>(witness)
            #expect(held.withLock { $0 } != nil)
        }
        #expect(released == nil)
    }
}
