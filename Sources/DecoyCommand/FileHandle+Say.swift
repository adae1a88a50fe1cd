import Foundation

extension FileHandle {
    /// Writes `line` and a line end at once: `print` buffers when the output is a file or a pipe,
    /// and scripts that wait for a line would wait for ever. A reader that has gone (a closed pipe)
    /// loses the line; `write(_:)`, which traps on the error, would stop the server over it.
    func say(_ line: String) {
        try? write(contentsOf: Data((line + "\n").utf8))
    }
}
