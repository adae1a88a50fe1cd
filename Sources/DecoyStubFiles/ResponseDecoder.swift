import Decoy
import Foundation
import HTTPTypes
import Yams

/// Reads a stub's `response` into a ``StubResponse``, WireMock's way.
struct ResponseDecoder {
    /// The fields of a response.
    static let fields =
        [
            "status", "statusMessage", "headers", "body", "jsonBody", "base64Body", "bodyFileName",
            "fixedDelayMilliseconds", "delayDistribution", "chunkedDribbleDelay", "bytesPerSecond", "fault",
            "transformers", "transformerParameters",
        ] + eventStreamFields + proxyFields

    /// The most header values one response may have. HTTP sets no limit, but clients do (curl
    /// refuses a head over 300 KiB, URLSession one over 256 KiB) and swift-http-types stops at 65,534.
    static let maximumHeaderFieldCount = 1_000
    /// The most bytes one response's header fields may take, written as `name: value\r\n`.
    static let maximumHeaderSize = 64 * 1024

    let bodyFiles: BodyFiles
    /// The stub file, relative to the folder, for body files named next to it.
    let stubFile: String
    /// How responses are read: templated, and with a content type from the body.
    var options = StubFileOptions()
    /// Added to every response: which stub answered.
    var matchedStubFields = HTTPFields()
    /// Whether the responses answer `HEAD` only, whose body is never sent.
    var answersHEAD = false

    /// The response `node` describes, a ``TemplateStub`` drawing from `seed` when it names the
    /// `response-template` transformer; `nil` after logging every problem in it.
    func decode(_ node: FileNode, seed: UInt64? = nil) -> (any Stub)? {
        guard let object = node.object(known: Self.fields), refuseProxyFields(object) else { return nil }
        guard let named = object["transformers"].map(transformers) ?? false else { return nil }
        object["transformerParameters"]?.warning(
            "read but not used: Decoy's templates do not read transformer parameters")
        let templated = named || options.templatesEveryResponse
        if templated, let fileNode = object["bodyFileName"], let name = fileNode.text(), name.contains("{{") {
            // Named per request: the file is found and read then, not now.
            guard
                let response = decode(
                    FileObject(node: node, members: object.members.filter { $0.key != "bodyFileName" }),
                    templated: true)
            else { return nil }
            return template(object, at: fileNode) { () throws(DecoyError) in
                try TemplateStub(
                    response,
                    bodyFile: (
                        try ResponseTemplate(name), bodyFiles.reader(forStubFile: stubFile).template(named:),
                        options.contentTypeFromBody
                    ),
                    seed: seed, now: nil)
            }
        }
        guard let response = decode(object, templated: templated) else { return nil }
        guard templated else { return response }
        return template(
            object, at: object.oneOf(["body", "jsonBody", "bodyFileName"])?.value ?? object["events"] ?? node
        ) {
            () throws(DecoyError) in try TemplateStub(response, seed: seed)
        }
    }

    /// `transformers`: WireMock's list, of which Decoy has `response-template`; whether it is named.
    /// Another name is an extension WireMock serves the stub without when it is not installed:
    /// so does Decoy, and says so.
    private func transformers(_ node: FileNode) -> Bool? {
        guard let elements = node.list("a list of transformer names") else { return nil }
        var templated = false
        for element in elements {
            guard let name = element.text() else { return nil }
            if name == "response-template" {
                templated = true
            } else {
                element.warning(
                    """
                    transformer \"\(name)\" is not in Decoy, which has response-template; served without it, as \
                    WireMock serves a stub whose transformer is not installed
                    """
                )
            }
        }
        return templated
    }

    /// The template stub `make` makes, or `nil` after logging where its template is malformed:
    /// at `bodyNode`, or at the header whose value it is.
    private func template(
        _ object: FileObject, at bodyNode: FileNode, _ make: () throws(DecoyError) -> TemplateStub
    ) -> TemplateStub? {
        do {
            return try make()
        } catch {
            let place = error.reason.hasPrefix("in header") ? object["headers"] ?? bodyNode : bodyNode
            // A jsonBody is templated as the JSON text it is sent as, so the place is in that text.
            let text = place.field.hasSuffix("jsonBody") ? " of its JSON text" : ""
            place.error(error.malformedTemplate(in: text))
            return nil
        }
    }

    /// The response's fields, without templates; a body file that cannot be served makes it
    /// WireMock's answer to one, a `500` that says why.
    private func decode(_ object: FileObject, templated: Bool) -> StubResponse? {
        let status =
            object["status"].map { node in
                node.integer(in: 100...599, "an integer 100…599").map { code in
                    HTTPResponse.Status(code: code, reasonPhrase: object["statusMessage"]?.text() ?? "")
                }
            } ?? HTTPResponse.Status.ok
        let headerFields = object["headers"].map(headers) ?? [:]
        let body =
            object.oneOf(["body", "jsonBody", "base64Body", "bodyFileName"]).map { readBody($0, templated: templated) }
            ?? Body.served(Data(), nil)
        let delay = Self.delay(object)
        let throttle = throttle(object)
        let fault = object["fault"].map(fault) ?? .some(nil)
        let events = eventStream(object)
        guard let status, var headerFields, let body, let delay, let throttle, let fault, let events else {
            return nil
        }
        if let events {
            headerFields.append(contentsOf: matchedStubFields)
            return EventStreamStub(status: status, headerFields: headerFields, stream: events, delay: delay).response
        }
        guard case .served(var body, let contentType) = body else {
            if case .unservable(let reason) = body {
                return StubResponse(status: .internalServerError, text: reason + "\n")
            }
            return nil
        }
        if options.contentTypeFromBody, let contentType, headerFields[.contentType] == nil {
            headerFields[.contentType] = contentType
        }
        if let headersNode = object["headers"], let declared = headerFields[.contentLength] {
            if templated {
                // Applied to each rendered body (TemplateStub), whose length is known only then.
                if !declared.contains("{{"), Int(declared).map({ $0 < 0 }) ?? true {
                    headersNode.error("Content-Length must be a whole number of bytes, not \"\(declared)\"")
                    return nil
                }
            } else {
                guard let length = declaredLength(declared, of: body, at: headersNode) else { return nil }
                // A HEAD answer announces the length of a body it never sends, which servings take
                // from the body itself.
                body = length > body.count ? body + Data(count: length - body.count) : body.prefix(length)
            }
        }
        headerFields.append(contentsOf: matchedStubFields)
        var response = StubResponse(status: status, headerFields: headerFields, body: body, delay: delay)
        response.throttle = throttle
        response.fault = fault
        return response
    }

    /// Header fields, each a string or a list of strings for a repeated field.
    func headers(_ node: FileNode) -> HTTPFields? {
        guard let object = node.object(known: nil) else { return nil }
        var fields = HTTPFields()
        var size = 0
        var valid = true
        for (name, value) in object.members {
            let values =
                if case .sequence = value.node { (value.list() ?? []).map { $0.text() } } else {
                    [value.text("a string or a list of strings")]
                }
            guard let fieldName = HTTPField.Name(name) else {
                value.error("\"\(name)\" is not a valid header name")
                valid = false
                continue
            }
            for text in values {
                guard let text else { valid = false; continue }
                size += name.utf8.count + text.utf8.count + 4
                // Checked as they come: swift-http-types traps at 65,535 fields.
                guard fields.count < Self.maximumHeaderFieldCount, size <= Self.maximumHeaderSize else {
                    node.error(
                        """
                        a response has at most \(Self.maximumHeaderFieldCount) header values and \
                        \(Self.maximumHeaderSize / 1024) KiB of header fields
                        """
                    )
                    return nil
                }
                // Byte for byte, as WireMock sends it: a value's edge spaces are the stub's to choose.
                fields.append(HTTPField(name: fieldName, lenientValue: Array(text.utf8)))
            }
        }
        return valid ? fields : nil
    }

    /// A response's body as read.
    private enum Body {
        /// The body and, when the kind of body tells it, the content type it implies.
        case served(Data, String?)
        /// A body file that WireMock would answer `500` for, each time: why.
        case unservable(String)
    }

    /// The body the field gives; `nil` after logging why there is none.
    private func readBody(_ field: (key: String, value: FileNode), templated: Bool) -> Body? {
        let (key, node) = field
        switch key {
        case "jsonBody":
            return .served(Data(JSONText.of(node.node).utf8), "application/json")
        case "base64Body":
            guard let text = node.text("base64 text"), let data = Data(base64Encoded: text) else {
                return node.expected("base64 text")
            }
            return .served(data, nil)
        case "bodyFileName":
            guard let name = node.text("a file name") else { return nil }
            // Without the transformer, WireMock reads a templated name as written.
            let literalTemplate = !templated && name.contains("{{")
            let advice = "add \"transformers\": [\"response-template\"] to render it"
            switch bodyFiles.body(named: name, forStubFile: stubFile) {
            case .success(let data):
                if literalTemplate {
                    node.warning(
                        """
                        bodyFileName \"\(name)\" is a template, but the response names no response-template \
                        transformer, so the file of that very name is served, as in WireMock; \(advice)
                        """
                    )
                }
                return .served(data, MediaType.forExtension((name as NSString).pathExtension))
            case .failure(.refused(let reason)):
                node.error(reason)
                return nil
            case .failure(.unservable(_)) where literalTemplate:
                let reason =
                    """
                    bodyFileName \"\(name)\" is a template, but the response names no response-template \
                    transformer, so WireMock reads the name as written and answers 500
                    """
                node.warning(reason + "; " + advice)
                return .unservable("The stub's " + reason + ".")
            case .failure(.unservable(let reason)):
                node.warning(reason + "; WireMock answers 500 for it, and so does Decoy")
                return .unservable("The stub's body file cannot be served: " + reason + ".")
            }
        default:
            return node.text().map { .served(Data($0.utf8), nil) }
        }
    }

    /// The stub's own `Content-Length`, which WireMock sends with as many bytes of the body;
    /// `nil` after logging why it cannot be.
    private func declaredLength(_ declared: String, of body: Data, at node: FileNode) -> Int? {
        guard let length = Int(declared), length >= 0 else {
            node.error("Content-Length must be a whole number of bytes, not \"\(declared)\"")
            return nil
        }
        guard length <= body.count || answersHEAD else {
            node.error(
                """
                Content-Length \(length) is more than the body's \(body.count) bytes; a client would wait for \
                bytes that never come
                """
            )
            return nil
        }
        return length
    }

    /// `fixedDelayMilliseconds` (or, for an event, `fixed`'s name) or `delayDistribution`; `.none`
    /// when neither.
    static func delay(_ object: FileObject, fixed: String = "fixedDelayMilliseconds") -> Delay? {
        guard let (key, node) = object.oneOf([fixed, "delayDistribution"]) else { return Delay.none }
        guard let delay = delay(key, node) else { return nil }
        if let problem = delay.problem {
            node.error(problem)
            return nil
        }
        return delay
    }

    private static func delay(_ key: String, _ node: FileNode) -> Delay? {
        if key != "delayDistribution" {
            return node.integer(in: 0...Int.max, "a whole number of milliseconds").map { .fixed(.milliseconds($0)) }
        }
        guard let distribution = node.object(known: ["type", "lower", "upper", "median", "sigma"]) else { return nil }
        func milliseconds(_ name: String) -> Duration? {
            guard let value = distribution[name] else {
                node.error("this delay needs \"\(name)\", in milliseconds")
                return nil
            }
            return value.integer(in: 0...Int.max, "a whole number of milliseconds").map { .milliseconds($0) }
        }
        guard let type = distribution["type"] else {
            node.error("a delay distribution needs \"type\": uniform or lognormal")
            return nil
        }
        switch type.text() {
        case "uniform":
            guard let lower = milliseconds("lower"), let upper = milliseconds("upper") else { return nil }
            guard lower <= upper else {
                node.error("\"lower\" is greater than \"upper\"")
                return nil
            }
            return .uniform(lower...upper)
        case "lognormal":
            guard let median = milliseconds("median") else { return nil }
            guard let sigma = distribution["sigma"] else {
                node.error("a lognormal delay needs \"sigma\", a number")
                return nil
            }
            return sigma.number().map { .lognormal(median: median, sigma: $0) }
        default:
            return type.expected("uniform or lognormal")
        }
    }

    /// WireMock's `chunkedDribbleDelay` or Decoy's `bytesPerSecond`; `.none` when neither.
    private func throttle(_ object: FileObject) -> Throttle? {
        guard let (key, node) = object.oneOf(["chunkedDribbleDelay", "bytesPerSecond"]) else { return Throttle.none }
        if key == "bytesPerSecond" {
            return node.integer(in: 1...Int.max, "a whole number of bytes above 0").map { .bytesPerSecond($0) }
        }
        guard let dribble = node.object(known: ["numberOfChunks", "totalDuration"]) else { return nil }
        guard let countNode = dribble["numberOfChunks"], let durationNode = dribble["totalDuration"] else {
            node.error("chunkedDribbleDelay needs \"numberOfChunks\" and \"totalDuration\", in milliseconds")
            return nil
        }
        let count = countNode.integer(in: 1...Int.max, "a whole number above 0")
        let duration = durationNode.integer(in: 0...Int.max, "a whole number of milliseconds")
        guard let count, let duration else { return nil }
        return .chunks(count: count, over: .milliseconds(duration))
    }

    private func fault(_ node: FileNode) -> Fault?? {
        guard let fault = node.text().flatMap({ StubFileFormat.faults[$0] }) else {
            return node.expected("one of \(StubFileFormat.faults.keys.sorted().joined(separator: ", "))")
        }
        return .some(fault)
    }
}
