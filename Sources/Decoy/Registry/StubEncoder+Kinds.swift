/// The built-in stub kinds as stub files write them: one conformance each, the table the
/// encoder reads a kind's fields from (see ``StubFileEncodable``).
extension StubResponse: StubFileEncodable {
    /// `response`.
    package func stubFileMembers() throws(DecoyError) -> [String: JSONValue] {
        ["response": try StubEncoder.part("StubResponse") { () throws(DecoyError) in try StubEncoder.response(self) }]
    }

    /// The response's fields.
    package func stubFileResponse() throws(DecoyError) -> JSONValue? {
        try StubEncoder.response(self)
    }
}

extension EventStreamStub: StubFileEncodable {
    /// `response`, with its `events`.
    package func stubFileMembers() throws(DecoyError) -> [String: JSONValue] {
        [
            "response": try StubEncoder.part("EventStreamStub") { () throws(DecoyError) in
                try StubEncoder.response(response)
            }
        ]
    }

    /// The response's fields, with its `events`.
    package func stubFileResponse() throws(DecoyError) -> JSONValue? {
        try StubEncoder.response(response)
    }
}

extension TemplateStub: StubFileEncodable {
    /// `response` with WireMock's `transformers`, and the stub's `seed`.
    package func stubFileMembers() throws(DecoyError) -> [String: JSONValue] {
        var members = ["response": try StubEncoder.part("TemplateStub") { () throws(DecoyError) in try written() }]
        if let seed { members["seed"] = try StubEncoder.number(seed, of: "TemplateStub") }
        return members
    }

    /// The response with WireMock's `transformers`; a seed is refused, being the stub's.
    package func stubFileResponse() throws(DecoyError) -> JSONValue? {
        guard seed == nil else {
            throw DecoyError.cannotBeSent(
                stub: "its seed", reason: "a stub file seeds a template only as a stub's one response"
            ).inside("TemplateStub")
        }
        return try StubEncoder.part("TemplateStub") { () throws(DecoyError) in try written() }
    }

    /// The response with WireMock's `transformers`; what a stub file cannot say is refused.
    private func written() throws(DecoyError) -> JSONValue {
        if clock != nil {
            throw DecoyError.cannotBeSent(
                stub: "its clock", reason: "the clock {{now}} reads runs only in the process that made it")
        }
        guard case .object(var members) = try StubEncoder.response(response) else {
            preconditionFailure("a response is written as an object")
        }
        members["transformers"] = .array([.string("response-template")])
        return .object(members)
    }
}

extension AlternatingStub: StubFileEncodable {
    /// `responses`, `mode: alternating`.
    package func stubFileMembers() throws(DecoyError) -> [String: JSONValue] {
        try StubEncoder.list(stubs, mode: "alternating", of: "AlternatingStub")
    }
}

extension RandomStub: StubFileEncodable {
    /// `responses`, `mode: random` and the `seed`.
    package func stubFileMembers() throws(DecoyError) -> [String: JSONValue] {
        var members = try StubEncoder.list(stubs, mode: "random", of: "RandomStub")
        if let seed = random.seed { members["seed"] = try StubEncoder.number(seed, of: "RandomStub") }
        return members
    }
}

extension SequenceStub: StubFileEncodable {
    /// `responses`, `mode: sequence`: the last one answers every call after.
    package func stubFileMembers() throws(DecoyError) -> [String: JSONValue] {
        try StubEncoder.list(first + [then], mode: "sequence", of: "SequenceStub")
    }
}

extension ConditionalStub: StubFileEncodable {
    /// `when`, its matchers, with `response` and `else`; a closure condition is refused.
    package func stubFileMembers() throws(DecoyError) -> [String: JSONValue] {
        guard let matchers else {
            throw DecoyError.cannotBeSent(
                stub: "ConditionalStub",
                reason:
                    """
                    its condition is a closure, which runs only in the process that made it; make it from \
                    request matchers, ConditionalStub(when: [...], then:, else:)
                    """
            )
        }
        var when: [String: JSONValue] = [:]
        try StubEncoder.addMatchers(matchers, to: &when, of: "ConditionalStub › when")
        return [
            "when": .object(when),
            "response": try StubEncoder.responseOnly(then, at: "ConditionalStub › then"),
            "else": try StubEncoder.responseOnly(otherwise, at: "ConditionalStub › else"),
        ]
    }
}

extension FailingStub: StubFileEncodable {
    /// The other stub's fields with `failureRate`, `failure` and the `seed` of both.
    package func stubFileMembers() throws(DecoyError) -> [String: JSONValue] {
        var members = try StubEncoder.part("FailingStub › otherwise") { () throws(DecoyError) in
            guard !(otherwise is FailingStub) else {
                throw DecoyError.cannotBeSent(
                    stub: "FailingStub", reason: "a stub file has one failure rate per stub, around the rest")
            }
            return try StubEncoder.stub(otherwise)
        }
        members["failureRate"] = .number(rate)
        members["failure"] = try StubEncoder.responseOnly(failure, at: "FailingStub › failure")
        if let seed = try seed(around: members) { members["seed"] = try StubEncoder.number(seed, of: "FailingStub") }
        return members
    }

    /// The file's `seed`, given the other stub's `members`. Around a random mode, a stub file has
    /// one seed for both, the list's, and the failures draw from it mixed; around a seeded
    /// template, one seed for both; an unseeded side takes what the other implies.
    private func seed(around members: [String: JSONValue]) throws(DecoyError) -> UInt64? {
        let inner: UInt64? = if case .number(let seed)? = members["seed"] { UInt64(seed) } else { nil }
        guard members["mode"] == .string("random") else {
            guard let inner else { return random.seed }
            guard inner == random.seed else {
                throw DecoyError.cannotBeSent(
                    stub: "FailingStub",
                    reason: "around a seeded TemplateStub, a stub file has one seed for both; give them the same seed")
            }
            return inner
        }
        switch (inner, random.seed) {
        case (let seed, nil): return seed
        case (let seed?, let failures?) where failures == seed ^ StubFileFormat.failureSeedMix: return seed
        default:
            throw DecoyError.cannotBeSent(
                stub: "FailingStub",
                reason:
                    """
                    around a RandomStub, a stub file has one seed, the RandomStub's; seed the RandomStub and \
                    leave the FailingStub's seed nil
                    """
            )
        }
    }
}

extension ClosureStub: StubFileEncodable {
    /// Refused: the closure is Swift code.
    package func stubFileMembers() throws(DecoyError) -> [String: JSONValue] {
        throw refusal
    }

    /// Refused, as a whole stub is.
    package func stubFileResponse() throws(DecoyError) -> JSONValue? {
        throw refusal
    }

    private var refusal: DecoyError {
        DecoyError.cannotBeSent(
            stub: "ClosureStub",
            reason:
                """
                its closure runs only in the process that made it; register it in-process, or write its answers \
                as StubResponse values
                """
        )
    }
}
