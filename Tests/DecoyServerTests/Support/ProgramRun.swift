import Foundation

/// A program run to its end: its exit status and what it printed on each stream.
///
/// Started with `posix_spawn` rather than Foundation's `Process`, whose `run()` in
/// swift-corelibs-foundation crashed (a bad read inside it) now and then while tests in parallel
/// held many sockets open; the child gets only its three streams, none of the tests' sockets.
struct ProgramRun: Sendable {
    let status: Int32
    let output: String
    let errors: String

    /// Runs `path` with `arguments` and blocks until it exits: call it off the cooperative pool.
    init(_ path: String, _ arguments: [String]) throws {
        var output: [Int32] = [0, 0]
        var errors: [Int32] = [0, 0]
        guard pipe(&output) == 0, pipe(&errors) == 0 else { throw POSIXError(.EMFILE) }
        // Kept from other children spawned meanwhile, whose copy would hold the pipe open.
        for descriptor in output + errors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        // Every other descriptor closed in the child, as listed now; glibc passes over one closed since.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(output[1])
        close(errors[1])
        defer { close(output[0]); close(errors[0]) }
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT) }
        // Errors are short, so reading them after the output cannot fill their pipe and stall the child.
        self.output = Self.readAll(output[0])
        self.errors = Self.readAll(errors[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        // The exit code, as Process's terminationStatus gives it; a signal's number when killed.
        self.status = status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
    }

    private static func readAll(_ descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 {
                bytes += buffer[..<count]
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return String(decoding: bytes, as: UTF8.self)
            }
        }
    }
}
