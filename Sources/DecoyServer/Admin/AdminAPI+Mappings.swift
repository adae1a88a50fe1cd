import Decoy
import DecoyStubFiles
import Foundation
import HTTPTypes

/// The endpoints of stub mappings, under `mappings`, and the stubs folder's report, `stub-files`.
extension AdminAPI {
    /// A list of mappings, as `GET /__admin/mappings` gives it.
    private struct MappingsPage: Encodable {
        let mappings: [JSONValue]
        let meta: AdminListMeta

        init(_ mappings: some Sequence<StubMapping>, total: Int) {
            self.mappings = mappings.map(\.document)
            meta = AdminListMeta(total: total)
        }
    }

    /// Newest first, with WireMock's `limit` and `offset`.
    func mappings(_ call: AdminCall) -> StubResponse {
        withMappings(call) { store in
            let all = store.mappings
            let offset: Int?
            let limit: Int?
            do throws(AdminRejection) {
                (offset, limit) = (
                    try Self.wholeNumber("offset", in: call.request), try Self.wholeNumber("limit", in: call.request)
                )
            } catch {
                return error.reply
            }
            let page = all.dropFirst(offset ?? 0).prefix(limit ?? all.count)
            return AdminReply.encoded(MappingsPage(page, total: all.count))
        }
    }

    func addMapping(_ call: AdminCall) -> StubResponse {
        withMappings(call) { store in
            do throws(DecoyError) {
                return AdminReply.json(try store.addMapping(call.body).json, status: .created)
            } catch {
                return AdminReply.invalid(error)
            }
        }
    }

    /// WireMock's `editStub`: the stub in the body replaces the one with its id.
    func editMapping(_ call: AdminCall) -> StubResponse {
        withMappings(call) { store in
            do throws(DecoyError) {
                guard let mapping = try store.editMapping(call.body) else {
                    return AdminReply.error(.notFound, "No stub mapping has the id of the edited stub.")
                }
                return AdminReply.json(mapping.json)
            } catch {
                return AdminReply.invalid(error)
            }
        }
    }

    func findMappingsByMetadata(_ call: AdminCall) -> StubResponse {
        withMappings(call) { store in
            do throws(DecoyError) {
                let found = try store.mappings(withMetadata: call.body)
                return AdminReply.encoded(MappingsPage(found, total: found.count))
            } catch {
                return AdminReply.invalid(error)
            }
        }
    }

    /// `GET`, `PUT` or `DELETE` of the mapping `{id}`.
    func mapping(_ call: AdminCall) -> StubResponse {
        let (id, method) = (call.parameters[0], call.request.method)
        return withMappings(call) { store in
            do throws(DecoyError) {
                let mapping =
                    switch method {
                    case .get: store.mapping(id: id)
                    case .put: try store.replaceMapping(id: id, with: call.body)
                    default: store.removeMapping(id: id)
                    }
                guard let mapping else { return AdminReply.error(.notFound, "No stub mapping has the id \"\(id)\".") }
                return method == .delete ? AdminReply.ok : AdminReply.json(mapping.json)
            } catch {
                return AdminReply.invalid(error)
            }
        }
    }

    /// What loading the stubs folder found: how many stubs serve, each refused one with every
    /// problem, and the warnings. Decoy's own: WireMock refuses a folder with a broken file whole.
    func stubFiles(_ call: AdminCall) -> StubResponse {
        withMappings(call) { store in
            guard let report = store.stubFilesReport else {
                return AdminReply.error(.notFound, "No stubs folder was loaded.")
            }
            return AdminReply.encoded(report)
        }
    }
}
