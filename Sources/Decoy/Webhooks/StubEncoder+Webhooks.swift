import HTTPTypes

extension StubEncoder {
    /// Webhooks as WireMock's `postServeActions` list, which stub files and the admin API read back.
    static func postServeActions(_ webhooks: [Webhook]) throws(DecoyError) -> JSONValue {
        var actions: [JSONValue] = []
        for webhook in webhooks {
            var parameters: [String: JSONValue] = [
                "method": .string(webhook.method.rawValue), "url": .string(webhook.url),
            ]
            if !webhook.headerFields.isEmpty { parameters["headers"] = headers(webhook.headerFields) }
            if let body = webhook.body { parameters["body"] = .string(body) }
            if let problem = webhook.delay.problem {
                throw DecoyError.cannotBeSent(stub: "its webhook's delay", reason: problem)
            }
            if case .fixed(let duration) = webhook.delay {
                parameters["delay"] = .object([
                    "type": .string("fixed"), "milliseconds": try milliseconds(duration, "its webhook's delay"),
                ])
            } else if let distribution = try distribution(webhook.delay, "its webhook's delay") {
                parameters["delay"] = .object(distribution)
            }
            actions.append(.object(["name": .string("webhook"), "parameters": .object(parameters)]))
        }
        return .array(actions)
    }
}
