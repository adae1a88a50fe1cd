package import Foundation

/// A program started with `posix_spawn` rather than Foundation's `Process`, whose `run()` in
/// swift-corelibs-foundation crashes now and then (a bad read inside it) while tests in parallel
/// hold many sockets open; the child gets its standard streams and none of the tests' sockets.
package final class SpawnedProgram: @unchecked Sendable {
    // `@unchecked Sendable`: the descriptors and the process id are set once, in `init`.
    /// The child's process id.
    package let id: pid_t
    /// The read ends of the child's standard output and, when captured, its standard error.
    private let output: Int32
    private let errors: Int32?

    /// Starts `path` with `arguments`; its standard error is the tests' own unless captured.
    package init(_ path: String, _ arguments: [String], capturingErrors: Bool = true) throws {
        var output: [Int32] = [0, 0]
        var errors: [Int32] = [-1, -1]
        guard pipe(&output) == 0, !capturingErrors || pipe(&errors) == 0 else { throw POSIXError(.EMFILE) }
        // Kept from other children spawned meanwhile, whose copy would hold the pipe open.
        for descriptor in output + errors where descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        if capturingErrors { posix_spawn_file_actions_adddup2(&actions, errors[1], 2) }
        // Every other descriptor closed in the child, as listed now; glibc passes over one closed since.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var id = pid_t()
        let spawned = posix_spawn(&id, path, &actions, nil, argv, environ)
        close(output[1])
        if capturingErrors { close(errors[1]) }
        guard spawned == 0 else {
            close(output[0])
            if capturingErrors { close(errors[0]) }
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT)
        }
        self.id = id
        self.output = output[0]
        self.errors = capturingErrors ? errors[0] : nil
    }

    deinit {
        close(output)
        if let errors { close(errors) }
    }

    /// What the child prints next on its standard output, waiting for it; empty once it is done.
    package func nextOutput() -> Data {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = read(output, &buffer, buffer.count)
            if count >= 0 { return Data(buffer[..<count]) }
            if errno != EINTR { return Data() }
        }
    }

    /// Everything the child prints on its standard output and error, read to their ends.
    fileprivate func readToEnd() -> (output: String, errors: String) {
        var printed = Data()
        while true {
            let piece = nextOutput()
            if piece.isEmpty { break }
            printed += piece
        }
        var errorsPrinted = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while let errors {
            let count = read(errors, &buffer, buffer.count)
            if count > 0 {
                errorsPrinted += buffer[..<count]
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        return (String(decoding: printed, as: UTF8.self), String(decoding: errorsPrinted, as: UTF8.self))
    }

    /// Sends `signal` to the child.
    package func send(_ signal: Int32) {
        kill(id, signal)
    }

    /// The exit status once the child has exited, as `Process`'s `terminationStatus` gives it (a
    /// signal's number when killed), waiting at most `limit`; `nil` if it is still running.
    package func exitStatus(within limit: Duration) -> Int32? {
        let deadline = ContinuousClock.now + limit
        var status: Int32 = 0
        while true {
            let waited = waitpid(id, &status, WNOHANG)
            if waited == id { return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f }
            if waited == -1, errno != EINTR { return nil }
            if ContinuousClock.now >= deadline { return nil }
            usleep(waited == 0 ? 10_000 : 0)
        }
    }
}

/// A program run to its end: its exit status and what it printed on each stream.
package struct ProgramRun: Sendable {
    package let status: Int32
    package let output: String
    package let errors: String

    /// Runs `path` with `arguments` and blocks until it exits: call it off the cooperative pool.
    package init(_ path: String, _ arguments: [String]) throws {
        let program = try SpawnedProgram(path, arguments)
        // Errors are short, so reading them after the output cannot fill their pipe and stall the child.
        (output, errors) = program.readToEnd()
        status = program.exitStatus(within: .seconds(365 * 24 * 3600)) ?? -1
    }
}

/// Runs `work`, which blocks (on a program, say), on a thread of its own and returns what it
/// returns: on Dispatch's global queues or Swift's cooperative pool, a thread per core, it would
/// hold one that URLSession or other tests wait for, on a 2-core machine half of them.
package func onThreadOfItsOwn<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
