import Decoy
import Foundation
import Yams

/// A kind of stub as a stub file reads it: the stub's fields that are its own, and how it reads
/// a stub from them. ``all`` is the one table of kinds: a stub's fields go through its kinds in
/// order, each reading the stub when the fields choose it and otherwise handing them on to the
/// kinds after it (`next`), which lets a kind also wrap what those make (a failure rate). A
/// kind is written by its conformance to `StubFileEncodable`, in the module of the kind.
struct StubFileKind: Sendable {
    /// The stub-level fields only this kind reads, beside those every stub has (`request`,
    /// `response` or `responses`, `seed` …).
    let fields: [String]
    /// The stub `stub` describes: this kind's when its fields choose it, otherwise `next()`'s;
    /// `nil` after logging every problem in it.
    let decode: @Sendable (_ stub: StubFields, _ next: () -> (any Stub)?) -> (any Stub)?

    /// Decoy's stub kinds, in the order they read a stub: a kind chosen by a field of its own
    /// goes before ``response``, which takes any `response` left.
    static let all: [StubFileKind] = [.failing, .list, .conditional, .proxy, .response]

    /// Decoy's lists of responses, by `mode`: each makes its stub of the responses, in order,
    /// and of the stub's `seed`.
    static let listModes: KeyValuePairs<String, @Sendable ([any Stub], _ seed: UInt64?) -> any Stub> = [
        "alternating": { stubs, _ in AlternatingStub(stubs) },
        "random": { stubs, seed in RandomStub(stubs, seed: seed) },
        "sequence": { stubs, _ in SequenceStub(first: stubs.dropLast(), then: stubs[stubs.count - 1]) },
    ]

    /// `response` alone: a ``StubResponse``, or a ``TemplateStub`` when it names the
    /// `response-template` transformer, drawing from the stub's seed.
    static let response = StubFileKind(fields: []) { stub, _ in
        guard let (key, node) = stub.answer, key == "response" else { return nil }
        return stub.responses.decode(node, seed: stub.object["seed"]?.plainScalar.flatMap { UInt64($0) })
    }

    /// `response` with `proxyBaseUrl`: a ``ProxyStub``.
    static let proxy = StubFileKind(fields: []) { stub, next in
        guard let (key, node) = stub.answer, key == "response", case .mapping(let mapping) = node.node,
            mapping.keys.contains(where: { $0.string == "proxyBaseUrl" })
        else { return next() }
        return stub.responses.decodeProxy(node)
    }

    /// `when`, request matchers, choosing between `response` and `else`: a ``ConditionalStub``.
    static let conditional = StubFileKind(fields: ["when", "else"]) { stub, next in
        let object = stub.object
        guard let (key, then) = stub.answer, key == "response" else { return next() }
        guard let when = object["when"] else {
            if let otherwise = object["else"] {
                otherwise.error("else needs \"when\"")
                return nil
            }
            return next()
        }
        let conditions = when.object(known: RequestDecoder.matcherFields).map(RequestDecoder.matchers)
        let chosen = stub.responses.decode(then)
        guard let otherwiseNode = object["else"] else {
            when.error("when needs \"else\", the response when the conditions do not hold")
            return nil
        }
        let otherwise = stub.responses.decode(otherwiseNode)
        guard let conditions, let chosen, let otherwise else { return nil }
        do {
            return try ConditionalStub(when: conditions.map(\.matcher), then: chosen, else: otherwise)
        } catch {
            DecodedRoute.logInvalid(conditions.map { ($0.matcher, $0.node) })
            return nil
        }
    }

    /// `responses` with its `mode` (and `seed`, for random): one of ``listModes``. A condition's
    /// `when` and `else` go with a `response` only.
    static let list = StubFileKind(fields: ["mode"]) { stub, next in
        let object = stub.object
        guard let (key, node) = stub.answer, key == "responses" else {
            if stub.answer != nil, let mode = object["mode"] {
                mode.error("mode goes with \"responses\", not \"response\"")
            }
            return next()
        }
        for (stray, strayNode) in object.members where stray == "when" || stray == "else" {
            strayNode.error("\(stray) goes with \"response\", not \"responses\"")
        }
        let modes = listModes.map(\.key).joined(separator: ", ")
        let decoded = node.list("a list of responses")?.map { stub.responses.decode($0) }
        guard let modeNode = object["mode"] else {
            node.error("responses needs \"mode\": \(modes)")
            return nil
        }
        let make = modeNode.text().flatMap { mode in
            listModes.first { $0.key == mode }?.value ?? modeNode.expected(modes)
        }
        let seed = stub.seed
        guard let decoded, let make, let seed else { return nil }
        let stubs = decoded.compactMap { $0 }
        guard stubs.count == decoded.count else { return nil }
        guard !stubs.isEmpty else {
            node.error("responses needs at least one response")
            return nil
        }
        return make(stubs, seed)
    }

    /// `failureRate` with its `failure` response around the stub the kinds after it make: a
    /// ``FailingStub``. A `seed` that neither this, a random mode nor a template uses is an error.
    static let failing = StubFileKind(fields: ["failureRate", "failure"]) { stub, next in
        let object = stub.object
        let other = next()
        guard let rateNode = object["failureRate"] else {
            if let failure = object["failure"] { failure.error("failure needs \"failureRate\"") }
            if let seed = object["seed"], other is TemplateStub, seed.integer(in: 0...Int.max, "a whole number") == nil
            {
                return nil
            }
            if let seed = object["seed"], !(other is TemplateStub),
                object["responses"] == nil || object["mode"]?.text() != "random"
            {
                seed.error("seed goes with mode random, failureRate or a response template")
            }
            return object["failure"] == nil ? other : nil
        }
        let rate = rateNode.number("a fraction from 0 to 1").flatMap {
            (0...1).contains($0) ? $0 : rateNode.expected("a fraction from 0 to 1")
        }
        guard let failureNode = object["failure"] else {
            rateNode.error("failureRate needs \"failure\", the response of a failing call")
            return nil
        }
        let failure = stub.responses.decode(failureNode)
        guard let other, let rate, let failure, let seed = stub.seed else { return nil }
        // Beside a random mode, the failures draw from a stream of their own: sharing its stream
        // would tie which response a call gets to whether it failed.
        let sharesSeed = object["mode"]?.text() == "random"
        return FailingStub(
            failing: rate, with: failure, otherwise: other,
            seed: sharesSeed ? seed.map { $0 ^ StubFileFormat.failureSeedMix } : seed)
    }
}

/// A stub's fields, as its kinds read them.
struct StubFields {
    /// Every field of the stub.
    let object: FileObject
    /// Its `response` or `responses`, whichever it has; `nil` when it has neither (an error
    /// already logged).
    let answer: (key: String, value: FileNode)?
    /// Reads each response.
    let responses: ResponseDecoder

    /// `seed`, for a random mode or a failure rate; `.some(nil)` when there is none.
    var seed: UInt64?? {
        guard let node = object["seed"] else { return .some(nil) }
        return node.integer(in: 0...Int.max, "a whole number").map { UInt64($0) }
    }
}
