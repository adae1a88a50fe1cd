import Decoy
import DecoyStubFiles
import HTTPTypes

/// WireMock's global settings, under `settings`: Decoy has the fixed delay, its registry's default delay.
extension AdminAPI {
    func settings(_ call: AdminCall) -> StubResponse {
        withSettings(call) { store in
            let fixedDelay: Int? =
                switch store.defaultDelay {
                case .none: 0
                case .fixed(let duration): Int(duration / .milliseconds(1))
                default: nil
                }
            return AdminReply.encoded(["settings": ["fixedDelay": fixedDelay]])
        }
    }

    func resetSettings(_ call: AdminCall) -> StubResponse {
        withSettings(call) { store in
            store.resetSettings()
            return AdminReply.ok
        }
    }

    func applySettings(_ call: AdminCall) -> StubResponse {
        withSettings(call) { store in
            do throws(DecoyError) {
                try store.applySettings(call.body)
                return AdminReply.ok
            } catch {
                return AdminReply.invalid(error)
            }
        }
    }
}
