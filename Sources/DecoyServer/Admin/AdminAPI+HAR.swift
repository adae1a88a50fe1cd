import Decoy
import Foundation

extension AdminAPI {
    /// The journal, oldest first, as a HAR 1.2 file: `decoy export har`'s source.
    func har() -> StubResponse {
        AdminReply.json(String(decoding: engine.journal.har(), as: UTF8.self))
    }
}
