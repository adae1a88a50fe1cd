import Dispatch
import Foundation

/// Runs an action when the process receives one of the given signals, instead of dying.
final class SignalWatcher {
    private let sources: [any DispatchSourceSignal]

    init(signals: [Int32], action: @escaping @Sendable () -> Void) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: action)
            source.resume()
            return source
        }
    }

    deinit { sources.forEach { $0.cancel() } }
}
