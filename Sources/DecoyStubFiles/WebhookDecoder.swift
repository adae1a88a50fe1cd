import Decoy
import Foundation
import HTTPTypes
import Yams

/// Reads a stub's `postServeActions` into ``Webhook``s: WireMock's list of named actions
/// (`[{"name": "webhook", "parameters": {…}}]`) or its older map (`{"webhook": {…}}`), which
/// WireMock 2.35.1 still reads. A webhook to a host the registry does not allow is found here, at
/// load, where its file and line can be named.
struct WebhookDecoder {
    /// The parameters of a webhook.
    static let parameterFields = ["method", "url", "headers", "body", "delay"]
    /// The hosts allowed beside loopback.
    var allowedHosts: Set<String> = []
    /// Whether a webhook to a host not allowed is left out with a warning, its stub served, as a
    /// folder is served as far as it can be; otherwise it is an error, as for a stub sent to the
    /// admin API, whose sender hears of warnings nowhere.
    var leavesOutDisallowedHosts = false

    /// One webhook's parameters, read.
    private enum Read {
        case webhook(Webhook)
        /// Its host is not allowed; the warning says so.
        case leftOut
        /// Malformed; the errors say why.
        case invalid
    }

    /// The webhooks `node` lists; `nil` after logging every problem in it.
    func decode(_ node: FileNode, responses: ResponseDecoder) -> [Webhook]? {
        var actions: [(name: String, parameters: FileNode?, node: FileNode)] = []
        var valid = true
        if case .mapping = node.node {
            actions = node.object(known: nil)?.members.map { ($0.key, $0.value, $0.value) } ?? []
        } else if let list = node.list("a list of post-serve actions") {
            for item in list {
                guard let object = item.object(known: ["name", "parameters"]) else {
                    valid = false
                    continue
                }
                guard let nameNode = object["name"] else {
                    item.error("a post-serve action needs \"name\": webhook")
                    valid = false
                    continue
                }
                guard let name = nameNode.text() else {
                    valid = false
                    continue
                }
                actions.append((name, object["parameters"], item))
            }
        } else {
            return nil
        }
        var webhooks: [Webhook] = []
        for action in actions {
            guard action.name == "webhook" else {
                action.node.error("not supported by Decoy: the post-serve action \"\(action.name)\"; only webhook is")
                valid = false
                continue
            }
            guard let parameters = action.parameters else {
                action.node.error("a webhook needs \"parameters\" with at least \"url\"")
                valid = false
                continue
            }
            switch webhook(parameters, responses: responses) {
            case .webhook(let webhook): webhooks.append(webhook)
            case .leftOut: break
            case .invalid: valid = false
            }
        }
        return valid ? webhooks : nil
    }

    /// One webhook's parameters.
    private func webhook(_ node: FileNode, responses: ResponseDecoder) -> Read {
        guard let object = node.object(known: Self.parameterFields) else { return .invalid }
        let method =
            object["method"].map { methodNode in
                methodNode.text().flatMap { HTTPRequest.Method($0) ?? methodNode.expected("a method such as \"POST\"") }
            } ?? .get
        guard let urlNode = object["url"] else {
            node.error("a webhook needs \"url\", where it is sent")
            return .invalid
        }
        let url = urlNode.text().flatMap { checked($0, at: urlNode, part: "url") }.flatMap { absolute($0, at: urlNode) }
        let headers = object["headers"].map { self.headers($0, responses: responses) } ?? HTTPFields()
        let body = object["body"].map { node in node.text().flatMap { checked($0, at: node, part: "body") } }
        let delay = object["delay"].map { self.delay($0) } ?? Delay.none
        guard let method, let url, let headers, body != .some(nil), let delay else { return .invalid }
        if let host = url.host, !WebhookHosts.allows(host, besides: allowedHosts) {
            guard leavesOutDisallowedHosts else {
                urlNode.error(WebhookHosts.refusal(of: host))
                return .invalid
            }
            urlNode.warning(
                """
                this webhook is not sent: "\(host)" is not a loopback host; the stub is served without it. \
                Allow the host with --webhook-allowed-host \(host) (StubRegistry.webhookAllowedHosts in Swift)
                """)
            return .leftOut
        }
        // Every template was parsed above, where a malformed one is named by its field.
        return (try? Webhook(method, url: url.text, headerFields: headers, body: body ?? nil, delay: delay))
            .map(Read.webhook) ?? .invalid
    }

    /// `headers`, when every value parses as a template; each malformed one is logged.
    private func headers(_ node: FileNode, responses: ResponseDecoder) -> HTTPFields? {
        guard let fields = responses.headers(node) else { return nil }
        let malformed = fields.filter { checked($0.value, at: node, part: "header \($0.name)") == nil }
        return malformed.isEmpty ? fields : nil
    }

    /// `text`, when it parses as a template of the webhook's `part`.
    private func checked(_ text: String, at node: FileNode, part: String) -> String? {
        do {
            _ = try Webhook.template(text, part: part)
            return text
        } catch {
            node.error(error.malformedTemplate())
            return nil
        }
    }

    /// `url`, when it is an absolute `http` or `https` URL, with its host; one whose host is a
    /// template has none here, and its host is checked when it is sent.
    private func absolute(_ url: String, at node: FileNode) -> (text: String, host: String?)? {
        let authority = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false).prefix(3)
        if authority.contains(where: { $0.contains("{{") }) { return (url, nil) }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty
        else {
            return node.expected("an absolute http or https URL")
        }
        return (url, host)
    }

    /// WireMock's `delay`: `{"type": "fixed", "milliseconds": …}`, or a distribution as a
    /// response's `delayDistribution` is written.
    private func delay(_ node: FileNode) -> Delay? {
        guard case .mapping = node.node else { return node.expected("an object") }
        guard let type = node.object(known: nil)?["type"] else {
            node.error("a delay needs \"type\": fixed, uniform or lognormal")
            return nil
        }
        switch type.text() {
        case "fixed":
            guard let object = node.object(known: ["type", "milliseconds"]) else { return nil }
            guard let milliseconds = object["milliseconds"] else {
                node.error("a fixed delay needs \"milliseconds\"")
                return nil
            }
            let delay = milliseconds.integer(in: 0...Int.max, "a whole number of milliseconds").map {
                Delay.fixed(.milliseconds($0))
            }
            if let problem = delay?.problem {
                milliseconds.error(problem)
                return nil
            }
            return delay
        case "uniform", "lognormal":
            return ResponseDecoder.delay(FileObject(node: node, members: [("delayDistribution", node)]))
        case nil:
            return nil
        default:
            return type.expected("fixed, uniform or lognormal")
        }
    }
}

extension DecoyError {
    /// A template's refusal as a stub file's error words it: `malformed template at line L, column C`,
    /// `text` after that (where in the field the template is), the reason, and the helper.
    func malformedTemplate(in text: String = "") -> String {
        guard case .invalidTemplate(let line, let column, let helper, let reason) = self else { return description }
        return "malformed template at line \(line), column \(column)\(text): \(reason)"
            + (helper.map { " (helper \($0))" } ?? "")
    }
}
