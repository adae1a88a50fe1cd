#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
    import Testing

    @testable import Decoy

    /// `SessionBinding.session(of:)` reads swift-corelibs-foundation's internal
    /// `URLSessionTask.session` by reflection; these fail, naming the field, when that changes.
    @Suite("A stubbed session is found from its task")
    struct SessionBindingTests {
        @Test func aTaskWithoutADelegateOfItsOwnLeadsToItsSession() throws {
            try expectSessionFound(delegate: nil)
        }

        @Test func aTaskWithADelegateOfItsOwnLeadsToItsSession() throws {
            try expectSessionFound(delegate: TaskDelegate())
        }

        private func expectSessionFound(delegate: (any URLSessionTaskDelegate)?) throws {
            let session = URLSession.stubbed(by: StubRegistry())
            defer { session.invalidateAndCancel() }
            let task = session.dataTask(with: URL(string: "http://decoy.test/")!)
            task.delegate = delegate
            let found = try #require(
                SessionBinding.session(of: task),
                """
                swift-corelibs-foundation's URLSessionTask has no `session` field holding its URLSession any more: \
                SessionBinding.session(of:) must find the task's session another way
                """
            )
            #expect(found === session)
            #expect(SessionBinding.engine(for: URLRequest(url: task.originalRequest!.url!), task: task) != nil)
        }
    }

    private final class TaskDelegate: NSObject, URLSessionTaskDelegate, Sendable {}
#endif
